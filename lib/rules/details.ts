/** A failed rule, as reported in `error.details` (contract §2). */
export interface Detail {
  path: string;
  code: DetailCode;
  message: string;
}

/** Every detail code (contract §2 and §1's deck rules), once. */
export const DETAIL_CODES = [
  'required',
  'invalid_type',
  'invalid_value',
  'too_long',
  'too_many',
  'too_few',
  'duplicate',
  'unknown_field',
  'not_writable',
  'invalid_deck_code',
  'deck_size',
  'unknown_card',
  'derived_card',
  'headquarters_card',
  'wrong_faction',
  'ally_limit',
  'copy_limit',
  'not_in_deck',
  'items_required',
  'blank_reason',
  'null_section',
  'guide_required',
  'empty_patch',
  'not_enough_copies',
  'must_be_empty_object',
  'not_in_format',
] as const;
export type DetailCode = (typeof DETAIL_CODES)[number];

export const detail = (path: string, code: DetailCode, message: string): Detail => ({ path, code, message });

/** Joins path segments the contract's way: `a.b`, `a[0]`, `a[0].b`. */
export const at = (base: string, key: string | number): string =>
  typeof key === 'number' ? `${base}[${key}]` : base ? `${base}.${key}` : key;

/** Reports each id that occurs more than once in a list (`duplicate`, on its later positions). */
export function duplicates(ids: readonly string[], path: (i: number) => string, what: string): Detail[] {
  const seen = new Set<string>();
  const out: Detail[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) out.push(detail(path(i), 'duplicate', `${id} is listed more than once in ${what}`));
    seen.add(id);
  });
  return out;
}
