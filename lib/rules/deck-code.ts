/**
 * The KARDS share code (contract §1):
 *   code := "%%" main ally "|" g1 ";" g2 ";" g3 ";" g4   — every card in group N is in the deck N times.
 * The game client's storage form (contract §11.5; ../shared/reference/kards/README.md "Client/server
 * storage form", seen in the official server's deck headers) is read as the deck it holds:
 *   storage := code "~" h1 ";" h2 ";" h3 ";" h4 "|" hq   — hq: 4 characters of [0-9A-Za-z] (the HQ's id and 2 more)
 * its part after "~" and its HQ segment are not part of the deck (they are checked for shape, then dropped).
 * parseDeckCode never throws anything but DeckCodeError, whatever it is given.
 */
import { compareBase62, isBase62Char } from './base62.ts';
import { type FactionId, factionByDigit, factionById } from './factions.ts';

export interface CardCount {
  card_id: string;
  count: number;
}

/** A decoded deck: factions and cards (each id once, in canonical base-62 order). */
export interface Deck {
  main: FactionId;
  ally: FactionId;
  cards: CardCount[];
}

export class DeckCodeError extends Error {
  override readonly name = 'DeckCodeError';
  readonly code = 'invalid_deck_code';
  /** Character offset in the string as given (before trimming). */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

export const MAX_GROUP = 4;

const describe = (c: string | undefined): string => (c === undefined ? 'end of code' : JSON.stringify(c));

/**
 * The deck a code stands for. `origin` is where the code's first character stands in what the reader
 * sent (its offsets are reported there): -2 for a code read from its URL form, which has no "%%".
 */
export function parseDeckCode(input: unknown, origin = 0): Deck {
  if (typeof input !== 'string') throw new DeckCodeError('deck code must be a string', 0);
  const lead = input.length - input.trimStart().length + origin;
  const code = input.trim();
  const fail: (message: string, at: number) => never = (message, at) => {
    throw new DeckCodeError(`${message} at offset ${lead + at}`, lead + at);
  };

  if (!code.startsWith('%%')) fail(`expected "%%" but found ${describe(code.slice(0, 2) || undefined)}`, 0);
  const main = factionByDigit(code[2] ?? '');
  if (!main) fail(`expected a main faction digit 1-5 but found ${describe(code[2])}`, 2);
  else if (!main.main) fail(`${main.name} (${code[2]}) cannot be a main faction; main must be 1-5`, 2);
  const ally = factionByDigit(code[3] ?? '');
  if (!ally) fail(`expected an ally faction digit 1-9 or "a" but found ${describe(code[3])}`, 3);
  if (ally === main) fail(`ally faction must differ from the main faction (${main?.name})`, 3);
  if (code[4] !== '|') fail(`expected "|" after the factions but found ${describe(code[4])}`, 4);

  const seenAt = new Map<string, number>();
  const cards: CardCount[] = [];
  let group = 1;
  let i = 5;
  while (i < code.length) {
    const c = code[i] as string;
    if (c === '~') {
      if (group < MAX_GROUP) fail(`expected ${MAX_GROUP} groups separated by ";" before "~" but found ${group}`, i);
      storageTail(code, i, fail);
      break;
    }
    if (c === ';') {
      if (group === MAX_GROUP) fail(`unexpected ";": a code has exactly ${MAX_GROUP} groups`, i);
      group++;
      i++;
      continue;
    }
    if (!isBase62Char(c)) fail(`unexpected ${describe(c)} in group ${group}; card ids are 2 characters of [0-9A-Za-z]`, i);
    const next = code[i + 1];
    if (next === undefined || !isBase62Char(next)) {
      fail(`card id in group ${group} is cut short (expected 2 characters of [0-9A-Za-z])`, i);
    }
    const id = c + next;
    const before = seenAt.get(id);
    if (before !== undefined) fail(`card "${id}" appears again (first at offset ${lead + before}); an id may stand only once`, i);
    seenAt.set(id, i);
    cards.push({ card_id: id, count: group });
    i += 2;
  }
  if (group < MAX_GROUP) fail(`expected ${MAX_GROUP} groups separated by ";" but found ${group}`, code.length);

  cards.sort((a, b) => compareBase62(a.card_id, b.card_id));
  return { main: main.id, ally: ally.id, cards };
}

/** Length of the storage form's HQ segment: the HQ card's 2-character id and 2 characters more. */
const HQ_SEGMENT = 4;

/**
 * The storage form's tail from its "~" (at `from`): 4 groups of 2-character ids, "|", the HQ segment, the
 * end. Its ids are not the deck's: they are read for shape only.
 */
function storageTail(code: string, from: number, fail: (message: string, at: number) => never): void {
  let group = 1;
  let i = from + 1;
  for (; i < code.length && code[i] !== '|'; i++) {
    const c = code[i] as string;
    if (c === ';') {
      if (group === MAX_GROUP) fail(`unexpected ";": the part after "~" has exactly ${MAX_GROUP} groups`, i);
      group++;
    } else if (!isBase62Char(c) || !isBase62Char(code[i + 1] ?? '')) {
      fail(`unexpected ${describe(c)} after "~"; its card ids are 2 characters of [0-9A-Za-z]`, i);
    } else i++;
  }
  if (group < MAX_GROUP) fail(`expected ${MAX_GROUP} groups after "~" but found ${group}`, i);
  if (code[i] !== '|') fail(`expected "|" and the HQ segment after the part after "~" but found ${describe(code[i])}`, i);
  const hq = code.slice(i + 1);
  for (let k = 0; k < HQ_SEGMENT; k++) {
    if (!isBase62Char(hq[k] ?? '')) fail(`the HQ segment is ${HQ_SEGMENT} characters of [0-9A-Za-z]; found ${describe(hq[k])}`, i + 1 + k);
  }
  if (hq.length > HQ_SEGMENT) fail(`unexpected ${describe(hq[HQ_SEGMENT])} after the HQ segment`, i + 1 + HQ_SEGMENT);
}

/** The canonical code: ids inside each group sorted by base-62 value. Counts must be 1-4. */
export function encodeDeckCode(deck: Deck): string {
  const main = factionDigit(deck.main);
  const ally = factionDigit(deck.ally);
  const groups: string[][] = [[], [], [], []];
  for (const { card_id, count } of [...deck.cards].sort((a, b) => compareBase62(a.card_id, b.card_id))) {
    if (!Number.isInteger(count) || count < 1 || count > MAX_GROUP) {
      throw new RangeError(`cannot encode ${count} copies of ${card_id}`);
    }
    (groups[count - 1] as string[]).push(card_id);
  }
  return `%%${main}${ally}|${groups.map((g) => g.join('')).join(';')}`;
}

const factionDigit = (id: FactionId): string => {
  const f = factionById(id);
  if (!f) throw new RangeError(`unknown faction ${id}`);
  return f.digit;
};

/** Total number of cards (copies counted). */
export const cardTotal = (cards: readonly CardCount[]): number => cards.reduce((n, c) => n + c.count, 0);

/** The cards as the API shows them (`cards_snapshot`): sorted by card_id in plain string order. */
export const cardsSnapshot = (cards: readonly CardCount[]): CardCount[] =>
  [...cards].sort((a, b) => (a.card_id < b.card_id ? -1 : a.card_id > b.card_id ? 1 : 0));
