/**
 * Replace (requirement §4): remove `count` copies of one card and add as many of another, in order,
 * then apply every deck rule to the result and encode it. Writes nothing.
 */
import type { Catalogue } from './catalogue.ts';
import { MAX_GROUP } from './deck-code.ts';
import type { Described } from './deck-model.ts';
import { checkDeck } from './deck-rules.ts';
import { derivedWithCards, readDeckCode } from './deck-write.ts';
import { at, type Detail, detail } from './details.ts';
import { ReplaceBody } from './schemas.ts';
import { parseStrict } from './strict-input.ts';

export type ReplaceResult = { ok: true; result: Described } | { ok: false; details: Detail[] };

export function checkReplace(body: Record<string, unknown>, catalogue: Catalogue): ReplaceResult {
  const parsed = parseStrict(ReplaceBody, body);
  if (!parsed.ok) return { ok: false, details: parsed.details };
  const { deck_code, replacements } = parsed.output;
  const deck = readDeckCode(deck_code);
  if ('path' in deck) return { ok: false, details: [deck] };

  const copies = new Map(deck.cards.map((c) => [c.card_id, c.count]));
  const addedBy = new Map<string, number>();
  const shortfalls: Detail[] = [];
  replacements.forEach(({ remove_card_id: out, add_card_id: inn, count }, i) => {
    const have = copies.get(out) ?? 0;
    if (have < count) {
      shortfalls.push(
        detail(
          at(at('replacements', i), 'remove_card_id'),
          'not_enough_copies',
          `the deck holds ${have} ${have === 1 ? 'copy' : 'copies'} of ${out}; cannot remove ${count}`,
        ),
      );
      return;
    }
    if (have === count) copies.delete(out);
    else copies.set(out, have - count);
    copies.set(inn, (copies.get(inn) ?? 0) + count);
    addedBy.set(inn, i);
  });
  if (shortfalls.length > 0) return { ok: false, details: shortfalls };

  const result = { ...deck, cards: [...copies].map(([card_id, count]) => ({ card_id, count })) };
  const details = checkDeck(result, catalogue, {
    pathForCard: (id) => {
      const i = addedBy.get(id);
      return i === undefined ? 'deck_code' : at(at('replacements', i), 'add_card_id');
    },
  });
  // Copy limits stop at 4 for every rarity, so a rule failure already covers any unencodable count.
  if (details.length > 0 || result.cards.some((c) => c.count > MAX_GROUP)) return { ok: false, details };
  return { ok: true, result: derivedWithCards(result) };
}
