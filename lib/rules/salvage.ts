/**
 * Stand-ins for a guide or an archive that failed its shape, so that the card rules can still judge
 * what is well-formed in it and every failing rule is reported at once (contract §8.1): a too-long
 * guide.system must not hide a core card that is not in the deck. Only well-typed parts are kept;
 * anything else becomes a hole in its array (its index, and so every path, is kept) or an empty value.
 * Never stored: a body with any failure is refused, and the caller drops rule failures on or below
 * a path that already failed its shape.
 */
import type { Alternatives, Archive, ChartSettings, Guide, KeyComponents } from './deck-model.ts';
import { isJsonObject } from './strict-input.ts';

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** An array of what `keep` accepts, with holes where it does not (indexes preserved). */
function sparse<T>(raw: unknown, keep: (x: unknown) => T | undefined): T[] {
  if (!Array.isArray(raw)) return [];
  const out: T[] = [];
  raw.forEach((x, i) => {
    const kept = keep(x);
    if (kept !== undefined) out[i] = kept;
  });
  out.length = raw.length;
  return out;
}
const ids = (raw: unknown) => sparse(raw, str);

export function salvageGuide(raw: unknown): Guide | null {
  if (!isJsonObject(raw)) return null;
  return {
    system: str(raw.system) ?? '',
    description: '',
    core_cards: ids(raw.core_cards),
    reserve_recommendations: ids(raw.reserve_recommendations),
  };
}

const item = (x: unknown) =>
  isJsonObject(x) ? { card_id: str(x.card_id) ?? '', reason: str(x.reason) ?? '', replaces_card_id: str(x.replaces_card_id) } : undefined;

function section<T extends KeyComponents | Alternatives>(raw: unknown): T | undefined {
  if (!isJsonObject(raw)) return undefined;
  return { enabled: raw.enabled === true, items: sparse(raw.items, item) } as T;
}

function chart(raw: unknown): ChartSettings | undefined {
  if (!isJsonObject(raw) || !isJsonObject(raw.otkConfig)) return undefined;
  const otk = (x: unknown) =>
    isJsonObject(x) ? { card_ids: ids(x.card_ids), required: Number.isInteger(x.required) ? (x.required as number) : 0 } : undefined;
  return { otkConfig: { items: sparse(raw.otkConfig.items, otk) } };
}

export function salvageArchive(raw: unknown): Partial<Archive> {
  if (!isJsonObject(raw)) return {};
  const out: Partial<Archive> = {};
  const kc = section<KeyComponents>(raw.key_components);
  const alt = section<Alternatives>(raw.alternatives);
  const otk = chart(raw.chart_settings);
  if (kc) out.key_components = kc;
  if (alt) out.alternatives = alt;
  if (otk) out.chart_settings = otk;
  return out;
}
