/**
 * How large an answer may grow. Lambda refuses a synchronous answer over 6 MB (its JSON, the body a string
 * in it: each `"` and `\` of a JSON body escaped again), so a page that holds whole decks stops before
 * ANSWER_BUDGET_BYTES as sent (contract §10.4: every answer under 3 MB, whatever it holds).
 */
export const ANSWER_BUDGET_BYTES = 2_500_000;

/** The bytes a JSON value adds to a function's answer: its JSON in UTF-8, plus one for each character escaped again. */
export function sentSize(value: unknown): number {
  const json = JSON.stringify(value);
  let escaped = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) escaped++;
  }
  return Buffer.byteLength(json) + escaped;
}

/** The longest head of `items` whose sizes stay within the budget: at least one item (a single item is within it by the store's item limit). */
export function withinBudget<T>(items: readonly T[], budget = ANSWER_BUDGET_BYTES): T[] {
  let used = 0;
  const kept: T[] = [];
  for (const item of items) {
    used += sentSize(item);
    if (kept.length > 0 && used > budget) break;
    kept.push(item);
  }
  return kept;
}
