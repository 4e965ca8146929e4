/**
 * Finding a card by what a player typed (Discord's /card and its autocomplete): its id, a name exactly in any
 * language, else the cards whose name in the player's language (else in English) matches, best first. Pure: the
 * catalogue is given.
 */
import { type Card, cardName } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import { cardsNamed, foldName } from './deck-text.ts';

/** A card with its name in a language, and both names folded (what is matched). */
export interface NamedCard {
  card: Card;
  name: string;
  mine: string;
  english: string;
}

/** The catalogue's cards with their names in a language, folded, kept per catalogue and language. */
const folded = new WeakMap<Catalogue, Map<string, NamedCard[]>>();
function foldedNames(catalogue: Catalogue, language: string): NamedCard[] {
  let byLanguage = folded.get(catalogue);
  if (!byLanguage) {
    byLanguage = new Map();
    folded.set(catalogue, byLanguage);
  }
  let list = byLanguage.get(language);
  if (!list) {
    list = catalogue.cards.map((card) => {
      const name = cardName(card, language);
      return { card, name, mine: foldName(name), english: foldName(card.name) };
    });
    byLanguage.set(language, list);
  }
  return list;
}

/**
 * The cards whose name in the language (else in English) matches what was typed, best first: a name that is what
 * was typed (in the language, then in English), then one that begins with it, then one with a word that begins
 * with it, then one that holds it; a playable card before every spawned one; then by name and id.
 */
export function matchingCards(typed: string, catalogue: Catalogue, language: string): NamedCard[] {
  const q = foldName(typed);
  const ranked: { rank: number; entry: NamedCard }[] = [];
  const rankOf = (name: string) =>
    name === q
      ? 0
      : name.startsWith(q)
        ? 2
        : name.split(/[\s\-–—·.,/()]+/).some((w) => w.startsWith(q)) || name.includes(` ${q}`)
          ? 4
          : name.includes(q)
            ? 6
            : -1;
  // Nothing typed begins every name: all listed, playable first.
  for (const entry of foldedNames(catalogue, language)) {
    const [mine, english] = [rankOf(entry.mine), rankOf(entry.english)];
    const rank = mine >= 0 ? mine : english >= 0 ? english + 1 : -1;
    if (rank >= 0) ranked.push({ rank: rank + (entry.card.derived ? 8 : 0), entry });
  }
  ranked.sort(
    (a, b) =>
      a.rank - b.rank || a.entry.name.localeCompare(b.entry.name, language) || a.entry.card.card_id.localeCompare(b.entry.card.card_id),
  );
  return ranked.map((r) => r.entry);
}

/**
 * The card a `/card` value names: its id (an autocomplete choice's value), else a card named so in any language
 * (cardsNamed: a playable card before a spawned one of the same name), else the best of what its autocomplete
 * lists for it — a part of a name ("T-34", "panzer iv") finds the card whose name begins with it, then holds it.
 */
export function cardOf(value: string, catalogue: Catalogue, language: string): Card | undefined {
  return (
    catalogue.get(value.trim()) ??
    cardsNamed(catalogue, value, undefined, undefined)[0] ??
    matchingCards(value, catalogue, language)[0]?.card
  );
}
