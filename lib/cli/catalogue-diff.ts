/**
 * `deckctl catalogue diff OLD NEW [--decks]` (before shipping a new season's catalogue): the cards
 * added, removed and changed (rarity, faction, exile, derived) between two catalogue files, and with
 * `--decks` how many stored decks (local store, or `--aws`) the new one would make illegal, by rule.
 */
import { parseArgs } from 'node:util';
import { loadCatalogueFile } from '#catalogue/load.ts';
import type { Card, Catalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { legality } from '#rules/insight.ts';
import { allDeckCodes } from '#store/decks.ts';
import { useStore } from './accounts.ts';
import { UsageError } from './usage.ts';

const WATCHED = ['rarity', 'faction', 'exile', 'derived'] as const;

export interface CatalogueDiff {
  added: string[];
  removed: string[];
  changed: { card_id: string; name: string; changes: { field: (typeof WATCHED)[number]; from: unknown; to: unknown }[] }[];
  decks?: {
    checked: number;
    made_illegal: number;
    by_rule: Record<string, number>;
    illegal: { id: string; user_id: string; rules: string[] }[];
  };
}

export function diffCatalogues(before: Catalogue, after: Catalogue): CatalogueDiff {
  const added = after.cards.filter((c) => !before.get(c.card_id)).map((c) => c.card_id);
  const removed = before.cards.filter((c) => !after.get(c.card_id)).map((c) => c.card_id);
  const changed = after.cards.flatMap((c) => {
    const old = before.get(c.card_id);
    if (!old) return [];
    const changes = WATCHED.filter((f) => old[f] !== c[f]).map((field) => ({
      field,
      from: old[field as keyof Card],
      to: c[field as keyof Card],
    }));
    return changes.length ? [{ card_id: c.card_id, name: c.name, changes }] : [];
  });
  return { added, removed, changed };
}

/** The stored decks legal under `before` that `after` makes illegal, by rule. */
export async function decksMadeIllegal(before: Catalogue, after: Catalogue): Promise<NonNullable<CatalogueDiff['decks']>> {
  const out: NonNullable<CatalogueDiff['decks']> = { checked: 0, made_illegal: 0, by_rule: {}, illegal: [] };
  const byRule = new Map<string, number>();
  for await (const d of allDeckCodes()) {
    out.checked += 1;
    const deck = parseDeckCode(d.deck_code);
    const now = legality(deck, after);
    if (now.valid || !legality(deck, before).valid) continue;
    const rules = [...new Set(now.errors.map((e) => e.code))];
    for (const r of rules) byRule.set(r, (byRule.get(r) ?? 0) + 1);
    out.made_illegal += 1;
    out.illegal.push({ id: d.id, user_id: d.user_id, rules });
  }
  out.by_rule = Object.fromEntries(byRule);
  return out;
}

export async function catalogueDiff(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, decks: { type: 'boolean' }, aws: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length !== 2) throw new UsageError('catalogue diff takes two catalogue files: OLD NEW');
  const [before, after] = (positionals as [string, string]).map((f) => loadCatalogueFile(f)) as [Catalogue, Catalogue];
  const diff = diffCatalogues(before, after);
  if (values.decks) {
    useStore(values.aws);
    diff.decks = await decksMadeIllegal(before, after);
  }
  if (values.json) console.log(JSON.stringify(diff, null, 2));
  else {
    console.log(`added ${diff.added.length}, removed ${diff.removed.length}, changed ${diff.changed.length}`);
    for (const c of diff.changed)
      console.log(`  ${c.card_id} ${c.name}: ${c.changes.map((x) => `${x.field} ${x.from} → ${x.to}`).join(', ')}`);
    if (diff.removed.length) console.log(`  removed: ${diff.removed.join(' ')}`);
    if (diff.decks) {
      const rules = Object.entries(diff.decks.by_rule)
        .map(([r, n]) => `${r} ${n}`)
        .join(', ');
      console.log(`decks: ${diff.decks.checked} checked, ${diff.decks.made_illegal} made illegal${rules ? ` (${rules})` : ''}`);
    }
  }
  return 0;
}
