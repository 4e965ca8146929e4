/**
 * The game's text export of a deck (contract §11.3), read and written. Pure. The format, as the game writes it
 * and AABur/kardscm reads it (`kardscm/importing/parser.py`, `DECK_CARD_PATTERN`, `DECK_METADATA_KEYS`):
 *
 *     Soviet Union / United States        ← the deck's name: the first line that is nothing else
 *     Major power: soviet
 *     Ally: usa
 *     HQ: Moscow                          ← optional; a share code holds no HQ, so it is read and left
 *     soviet:                             ← a nation's header (its id, or its name in any served language)
 *     2x (1K) VOLGA GREY RIFLES           ← `Nx (kK) NAME`
 *     usa:
 *     1x (3K) …
 *     %%45|…                              ← optional: the deck's code
 *
 * Reading matches a card's name in any language the catalogue names cards in, case and accents folded; where
 * a name is several cards' (a card and its spawned token), the deckable one, then the one of the header's
 * nation, then the one of the line's kredits. A card the catalogue does not know is written `[id]` (its
 * deck-code id) with `?` kredits, and read back as that id. What cannot be read is a DeckTextError naming its
 * line. The `%%` line wins when no card is listed; when cards are listed too, they must make the same deck.
 */
import { compareBase62, isCodeCardId } from './base62.ts';
import { type Card, cardName } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import { type CardCount, type Deck, DeckCodeError, encodeDeckCode, MAX_GROUP, parseDeckCode } from './deck-code.ts';
import { FACTION_NAMES, factionName } from './faction-names.ts';
import { type CardFaction, FACTION_BY_NATION, FACTIONS, type FactionId } from './factions.ts';
import { cutText, visible } from './invisible.ts';
import { LIMITS } from './limits.ts';

export class DeckTextError extends Error {
  override readonly name = 'DeckTextError';
  /** The line (1-based) it is about, if one. */
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.line = line;
  }
}

/** A name as reading compares it: compatibility forms unified, Latin, Greek and Cyrillic accents dropped, lower case, one space. */
export const foldName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

// `2x (1K) NAME` (kardscm: ^(\d+)x\s+\((\d+)K\)\s+(.+)$), `?` kredits for a card the catalogue does not know.
const CARD_LINE = /^(\d{1,3})\s*[x×]\s*\(\s*(\d{1,3}|\?)\s*k\s*\)\s*(.+)$/i;
const METADATA_LINE = /^(major power|ally|hq)\s*:\s*(.*)$/i;
const HEADER_LINE = /^(.{1,40}?)\s*:$/;
const ID_NAME = /^\[([0-9A-Za-z]{2})\]$/;

/** Every name a nation goes by (its id, the card API's nation name, its name in each language), folded. */
const NATIONS: ReadonlyMap<string, CardFaction> = new Map<string, CardFaction>([
  ['neutral', 'neutral'],
  ...Object.entries(FACTION_BY_NATION).map(([nation, id]) => [foldName(nation), id] as [string, CardFaction]),
  ...FACTIONS.flatMap((f) => [
    [f.id, f.id] as [string, CardFaction],
    [foldName(f.name), f.id] as [string, CardFaction],
    ...Object.values(FACTION_NAMES).map((names) => [foldName(names[f.id]), f.id] as [string, CardFaction]),
  ]),
]);

/** The nation a text names, if it names one. */
export const nationNamed = (text: string): CardFaction | undefined => NATIONS.get(foldName(text));

/** The nation a nation's header line (`soviet:`, `Sowjetunion:`) names, if the line is one. */
export const headerNation = (line: string): CardFaction | undefined => {
  const header = HEADER_LINE.exec(line);
  return header ? nationNamed(header[1] as string) : undefined;
};

/** The catalogue's deckable-or-not cards by each of their names in every language, folded. */
const indexes = new WeakMap<Catalogue, Map<string, Card[]>>();
function nameIndex(catalogue: Catalogue): Map<string, Card[]> {
  let index = indexes.get(catalogue);
  if (index) return index;
  index = new Map();
  for (const card of catalogue.cards) {
    if (!isCodeCardId(card.card_id)) continue;
    for (const name of new Set([card.name, ...Object.values(card.names ?? {})].map(foldName))) {
      const named = index.get(name);
      if (named) named.push(card);
      else index.set(name, [card]);
    }
  }
  indexes.set(catalogue, index);
  return index;
}

/** The cards a name stands for under a nation's header with these kredits: the fewest the preferences leave. */
export function cardsNamed(catalogue: Catalogue, name: string, nation: CardFaction | undefined, kredits: number | undefined): Card[] {
  let found = nameIndex(catalogue).get(foldName(name)) ?? [];
  for (const keep of [(c: Card) => !c.derived, (c: Card) => c.faction === nation, (c: Card) => c.kredits === kredits]) {
    if (found.length < 2) break;
    const kept = found.filter(keep);
    if (kept.length > 0) found = kept;
  }
  return found;
}

/**
 * A metadata line of the export (`Major power: soviet`, `Ally: usa`, `HQ: Moscow`), read: the nation it names (a
 * major power for `Major power:`), or for `HQ:` a name of its own (read and left: a share code holds no HQ); a
 * metadata line that names no such nation is an error naming it. Undefined for a line that is no metadata line.
 */
export function metadataOf(
  line: string,
  n: number,
): { key: 'major power' | 'ally'; faction: FactionId } | { key: 'hq'; faction?: undefined } | undefined {
  const metadata = METADATA_LINE.exec(line);
  if (!metadata) return undefined;
  const [, label = '', value = ''] = metadata;
  const key = label.toLowerCase() as 'major power' | 'ally' | 'hq';
  if (key === 'hq') {
    if (!value.trim()) throw new DeckTextError('"HQ:" names no headquarters', n);
    return { key };
  }
  const faction = nationNamed(value);
  if (!faction || faction === 'neutral') throw new DeckTextError(`${quoted(value)} names no nation`, n);
  if (key === 'major power' && !FACTIONS.find((f) => f.id === faction)?.main)
    throw new DeckTextError(`${factionName(faction, 'en')} cannot be a major power`, n);
  return { key, faction: faction as FactionId };
}

/** A `%%` line of the export, read: its deck, or an error naming the line when it does not parse. */
export function codeLineOf(line: string, n: number): Deck {
  try {
    return parseDeckCode(line);
  } catch (error) {
    if (error instanceof DeckCodeError) throw new DeckTextError(`the code does not parse: ${error.message}`, n);
    throw error;
  }
}

/** A line as a message quotes it: at most 60 characters, cut at a code point, what a reader cannot see shown as U+FFFD. */
export const quoted = (line: string) => JSON.stringify(visible(cutText(line, 60)));

/** The deck a text export stands for (its canonical card order); a DeckTextError naming the line it cannot read. */
export function readDeckText(text: string, catalogue: Catalogue): Deck {
  if (text.length > LIMITS.deckTextChars)
    throw new DeckTextError(`a deck's text has at most ${LIMITS.deckTextChars} characters; this one has ${text.length}`);
  let main: FactionId | undefined;
  let ally: FactionId | undefined;
  let nation: CardFaction | undefined;
  let named = false;
  let code: { deck: Deck; line: number } | undefined;
  const counts = new Map<string, { count: number; line: number }>();
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('%%')) {
      if (code) throw new DeckTextError(`a second %% code (the first is on line ${code.line})`, n);
      code = { deck: codeLineOf(line, n), line: n };
      continue;
    }
    const card = CARD_LINE.exec(line);
    if (card) {
      const [, copies = '', kredits = '', name = ''] = card;
      const id = cardOfLine(catalogue, name.trim(), nation, kredits === '?' ? undefined : Number(kredits), n);
      const total = (counts.get(id)?.count ?? 0) + Number(copies);
      if (Number(copies) < 1 || total > MAX_GROUP)
        throw new DeckTextError(`${quoted(name.trim())}: ${total} copies; a deck holds a card 1 to ${MAX_GROUP} times`, n);
      counts.set(id, { count: total, line: counts.get(id)?.line ?? n });
      continue;
    }
    const metadata = metadataOf(line, n);
    if (metadata) {
      if (metadata.key === 'ally') ally = metadata.faction;
      else if (metadata.key === 'major power') main = metadata.faction;
      continue;
    }
    const headed = headerNation(line);
    if (headed) {
      nation = headed;
      continue;
    }
    if (!named) {
      named = true;
      continue;
    }
    throw new DeckTextError(
      `${quoted(line)} is not a card line ("2x (1K) NAME"), a nation, "Major power:", "Ally:", "HQ:" or a %% code`,
      n,
    );
  }
  if (counts.size === 0) {
    if (code) return code.deck;
    // An empty deck's export (the deck builder's first code): its nations alone.
    if (main && ally && ally !== main) return { main, ally, cards: [] };
    throw new DeckTextError('no card lines ("2x (1K) NAME") and no %% code');
  }
  const cards: CardCount[] = [...counts]
    .map(([card_id, { count }]) => ({ card_id, count }))
    .sort((a, b) => compareBase62(a.card_id, b.card_id));
  main ??= code?.deck.main;
  if (!main) throw new DeckTextError('no "Major power:" line');
  ally ??= code?.deck.ally ?? allyOfCards(cards, catalogue, main);
  if (ally === main) throw new DeckTextError(`the ally must differ from the major power (${factionName(main, 'en')})`);
  const deck = { main, ally, cards };
  if (code && encodeDeckCode(code.deck) !== encodeDeckCode(deck))
    throw new DeckTextError(`the %% code is another deck than the cards listed make (${encodeDeckCode(deck)})`, code.line);
  return deck;
}

/** The card a line's name stands for (an `[id]`, or a name in any language), or a DeckTextError naming line `n`. */
export function cardOfLine(
  catalogue: Catalogue,
  name: string,
  nation: CardFaction | undefined,
  kredits: number | undefined,
  n: number,
): string {
  const byId = ID_NAME.exec(name);
  if (byId) return byId[1] as string;
  const found = cardsNamed(catalogue, name, nation, kredits);
  if (found.length === 1) return (found[0] as Card).card_id;
  if (found.length === 0) throw new DeckTextError(`no card is named ${quoted(name)} in any language of the catalogue`, n);
  throw new DeckTextError(`${quoted(name)} names ${found.length} cards (${found.map((c) => c.card_id).join(', ')}); write one as [id]`, n);
}

/** Without an "Ally:" line: the one nation the cards have besides the major power and neutral. */
function allyOfCards(cards: readonly CardCount[], catalogue: Catalogue, main: FactionId): FactionId {
  const others = new Set(cards.map((c) => catalogue.get(c.card_id)?.faction).filter((f) => f && f !== 'neutral' && f !== main));
  if (others.size === 1) return [...others][0] as FactionId;
  throw new DeckTextError('no "Ally:" line');
}

/** Where a card line begins: `2x (1K)`. */
const CARD_START = /\d{1,3}\s*[x×]\s*\(\s*(?:\d{1,3}|\?)\s*k\s*\)/i;

/**
 * A text export whose line breaks were lost — pasted into a one-line field, as Discord's command options are,
 * where they become spaces — with its lines back: a break before each `Nx (kK)` card, each `Major power:`,
 * `Ally:` and `HQ:`, and the %% code, and a nation's header (`soviet:`) at the end of a line made a line of
 * its own. A text that has line breaks, or no card line, is given back as it is.
 */
export function unflattenDeckText(text: string): string {
  if (/[\r\n]/.test(text) || !CARD_START.test(text)) return text;
  const lines = text
    // A run of spaces is matched from its start only ((?<!\s)): linear in the text, whatever runs it holds.
    .replace(new RegExp(`(?<!\\s)\\s+(?=${CARD_START.source}|(?:major power|ally|hq)\\s*:|%%)`, 'gi'), '\n')
    .split('\n')
    .flatMap((line) => {
      const header = /^(.*\S)\s+(\S{1,40}):$/.exec(line.trim());
      return header && nationNamed(header[2] as string) ? [header[1] as string, `${header[2]}:`] : [line];
    });
  return lines.join('\n');
}

/** Nations' sections in the order written: the major power, the ally, the others as the game orders them, neutral last. */
const sectionRank = (deck: Deck, faction: CardFaction | undefined): number =>
  faction === deck.main
    ? 0
    : faction === deck.ally
      ? 1
      : faction === 'neutral'
        ? 99
        : faction === undefined
          ? 100
          : 2 + FACTIONS.findIndex((f) => f.id === faction);

/** A deck's text export in a language: its cards' names in it (English where a card has none), by nation, then kredits, then name; its code last. */
export function writeDeckText(deck: Deck, catalogue: Catalogue, language: string): string {
  const rows = deck.cards.map(({ card_id, count }) => {
    const card = catalogue.get(card_id);
    const name = card ? cardName(card, language) : undefined;
    // A name that reads back as another card (a token named as its card) is written as its id.
    const named = card && name ? cardsNamed(catalogue, name, card.faction, card.kredits) : [];
    const plain = named.length === 1 && named[0] === card;
    return { card_id, count, card, shown: plain ? (name as string) : `[${card_id}]` };
  });
  rows.sort(
    (a, b) =>
      sectionRank(deck, a.card?.faction) - sectionRank(deck, b.card?.faction) ||
      (a.card?.kredits ?? 0) - (b.card?.kredits ?? 0) ||
      a.shown.localeCompare(b.shown, language) ||
      compareBase62(a.card_id, b.card_id),
  );
  const out = [
    `${factionName(deck.main, language)} / ${factionName(deck.ally, language)}`,
    `Major power: ${deck.main}`,
    `Ally: ${deck.ally}`,
  ];
  let section: CardFaction | null | undefined = null;
  for (const row of rows) {
    const faction = row.card?.faction;
    if (faction !== section) {
      // A card the catalogue does not know has no nation: its lines come after a blank one.
      out.push(faction === undefined ? '' : `${faction}:`);
      section = faction;
    }
    out.push(`${row.count}x (${row.card ? row.card.kredits : '?'}K) ${row.shown}`);
  }
  out.push('', encodeDeckCode(deck), '');
  return out.join('\n');
}
