/** Card ids in deck codes are 2-digit base-62 numbers over this alphabet (contract §1). */
export const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const digitValue = new Map<string, number>([...BASE62].map((c, i) => [c, i]));

export const isBase62Char = (c: string): boolean => digitValue.has(c);

/** Value of a base-62 string; NaN when any character is outside the alphabet. */
export function base62Value(s: string): number {
  let value = 0;
  for (const c of s) {
    const d = digitValue.get(c);
    if (d === undefined) return Number.NaN;
    value = value * 62 + d;
  }
  return value;
}

/** True for a card id that can stand in a deck code: exactly two base-62 characters. */
export const isCodeCardId = (id: string): boolean => id.length === 2 && digitValue.has(id[0] as string) && digitValue.has(id[1] as string);

export const compareBase62 = (a: string, b: string): number => base62Value(a) - base62Value(b);
