/**
 * A player's own cards (contract §12.3), pure: the collection an account keeps — the copies owned of each card, a
 * count above a deck's limit kept (a player may own more than a deck holds) — read from JSON (`{ "cards": { "<card_id>":
 * <copies> } }`) or from the game's text (a deck's export, several pasted one after another, or bare `Nx NAME` lines,
 * names in any served language: deck-text.ts reads them); a PATCH's copies added and removed; what a deck still needs
 * of it (cards, by rarity and by nation, buildable or not). Every card a collection holds is one of the catalogue's
 * that may stand in a deck, so a collection is bounded by the catalogue (its item with every real card owned: see
 * test/reference/collection.test.ts).
 */
import * as v from 'valibot';
import { isCodeCardId } from './base62.ts';
import { RARITIES, type Rarity } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import type { CardCount, Deck } from './deck-code.ts';
import { undeckable } from './deck-rules.ts';
import { cardOfLine, codeLineOf, DeckTextError, headerNation, metadataOf, quoted } from './deck-text.ts';
import { at, type Detail, detail } from './details.ts';
import type { CardFaction } from './factions.ts';
import { LIMITS } from './limits.ts';
import { parseStrict } from './strict-input.ts';

/** Copies owned by card id: only cards owned (a count of at least 1). */
export type Owned = Record<string, number>;

const Copies = v.record(v.string(), v.unknown());
const CollectionText = v.pipe(
  v.string(),
  v.maxLength(LIMITS.collectionTextChars),
  v.description(
    "The game's text: `Nx NAME` or `Nx (kK) NAME` lines, names in any served language (case and accents aside), a nation's header before a nation's lines where a name is two nations' cards; a deck's whole export (name line, `Major power:`, `Ally:`, `HQ:`, the %% code: read past), several one after another.",
  ),
);

/** PUT …/collection: the whole collection, as card ids and copies or as the game's text (one of the two). */
export const CollectionBody = v.strictObject({
  cards: v.optional(
    v.pipe(Copies, v.description(`Copies owned by card_id (a deck code's 2-character id): 0 to ${LIMITS.ownedCopies}; 0 is not owned.`)),
  ),
  text: v.optional(CollectionText),
});

/** PATCH …/collection: copies added and removed (by card id, or as the game's text), removals after additions. */
export const CollectionPatch = v.strictObject({
  add: v.optional(v.pipe(Copies, v.description('Copies to add, by card_id.'))),
  add_text: v.optional(CollectionText),
  remove: v.optional(
    v.pipe(Copies, v.description('Copies to remove, by card_id (a card goes when none is left; removing more than owned leaves none).')),
  ),
  remove_text: v.optional(CollectionText),
});

/** The copies members of a body as it was sent (its own members, every one), those present. */
const asSent = (body: unknown, names: readonly string[]): Record<string, Record<string, unknown>> =>
  Object.fromEntries(
    names.flatMap((name) => {
      const given = (body as Record<string, unknown>)[name];
      return given === undefined ? [] : [[name, given as Record<string, unknown>]];
    }),
  );

export type Read<T> = { ok: true; value: T } | { ok: false; details: Detail[] };

/** A card a collection may hold: one a deck code can carry (a 2-character id) that may stand in a deck. */
function ownable(path: string, id: string, catalogue: Catalogue): Detail | undefined {
  if (!isCodeCardId(id))
    return detail(path, 'invalid_value', `${JSON.stringify(id.slice(0, 20))} is not a deck card_id (2 characters of [0-9A-Za-z])`);
  return undeckable(path, id, catalogue.get(id));
}

/** Copies by card id from JSON: every key a card that may stand in a deck, every value a whole number 0 to the limit. */
function copiesOf(given: Record<string, unknown>, path: string, catalogue: Catalogue): Read<Owned> {
  const details: Detail[] = [];
  const out: Owned = {};
  for (const id of Object.keys(given)) {
    const where = at(path, id);
    const bad = ownable(where, id, catalogue);
    const copies = given[id];
    if (bad) details.push(bad);
    else if (typeof copies !== 'number' || !Number.isInteger(copies) || copies < 0 || copies > LIMITS.ownedCopies)
      details.push(detail(where, 'invalid_value', `${where} is a whole number of copies, 0 to ${LIMITS.ownedCopies}`));
    else if (copies > 0) out[id] = copies;
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value: out };
}

// `2x (1K) NAME` as the export writes it, or `2x NAME`.
const OWNED_LINE = /^(\d{1,3})\s*[x×]\s*(?:\(\s*(\d{1,3}|\?)\s*k\s*\)\s*)?(.+)$/i;

/**
 * Copies by card id from the game's text: card lines summed by card; a deck's name line (where the game's export
 * puts one: the line before a `Major power:`), its metadata and its %% code read past; a nation's header names the
 * nation the next names are looked up in first. A line that is none of these (the first line too: `1000x NAME`,
 * `hello world`), or names no card, is an error naming it, and nothing is read.
 */
export function readCollectionText(text: string, catalogue: Catalogue): Owned {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim());
  // Each line's next non-empty line (a name line is the one before a "Major power:"), found in one pass from the end.
  const nextOf: (string | undefined)[] = [];
  for (let i = lines.length - 1, next: string | undefined; i >= 0; i--) {
    nextOf[i] = next;
    if (lines[i] !== '') next = lines[i];
  }
  const owned: Owned = {};
  let nation: CardFaction | undefined;
  let read = false;
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    if (line === '') continue;
    // The export's own lines, each read as a deck's export reads it (a code that parses, a nation that is one).
    if (line.startsWith('%%')) {
      codeLineOf(line, n);
      continue;
    }
    if (metadataOf(line, n)) continue;
    const card = OWNED_LINE.exec(line);
    if (card) {
      const [, copies = '', kredits = '', name = ''] = card;
      const id = cardOfLine(catalogue, name.trim(), nation, kredits === '' || kredits === '?' ? undefined : Number(kredits), n);
      const bad = undeckable('text', id, catalogue.get(id));
      if (bad) throw new DeckTextError(bad.message, n);
      const total = (owned[id] ?? 0) + Number(copies);
      if (total > LIMITS.ownedCopies)
        throw new DeckTextError(`${quoted(name.trim())}: ${total} copies; at most ${LIMITS.ownedCopies} are kept`, n);
      if (total > 0) owned[id] = total;
      read = true;
      continue;
    }
    const headed = headerNation(line);
    if (headed) {
      nation = headed;
      continue;
    }
    // A deck's name line: the one before a deck's "Major power:" (read itself on its own line), as the game's export writes it.
    const nextLine = nextOf[i];
    if (nextLine !== undefined && /^major power\s*:/i.test(nextLine)) continue;
    throw new DeckTextError(
      `${quoted(line)} is not a card line ("2x NAME" or "2x (1K) NAME"), a nation's header or a deck's export line`,
      n,
    );
  }
  if (!read) throw new DeckTextError('the text holds no card line ("2x NAME" or "2x (1K) NAME"): nothing to read');
  return owned;
}

function textOf(text: string, path: string, catalogue: Catalogue): Read<Owned> {
  try {
    return { ok: true, value: readCollectionText(text, catalogue) };
  } catch (error) {
    if (error instanceof DeckTextError) return { ok: false, details: [detail(path, 'invalid_value', error.message)] };
    throw error;
  }
}

/** A PUT's collection: its cards or its text, exactly one of them. */
export function readCollectionBody(body: unknown, catalogue: Catalogue): Read<Owned> {
  const parsed = parseStrict(CollectionBody, body);
  if (!parsed.ok) return { ok: false, details: parsed.details };
  // The members as sent: valibot's record leaves out a `__proto__` member (JSON.parse makes it an own one), which
  // must be refused like any key that is no card, not dropped.
  const { cards, text } = { ...parsed.output, ...asSent(body, ['cards']) };
  if ((cards === undefined) === (text === undefined))
    return { ok: false, details: [detail('', 'invalid_value', 'send the collection as cards (by card_id) or as text, one of the two')] };
  return cards ? copiesOf(cards, 'cards', catalogue) : textOf(text as string, 'text', catalogue);
}

/** A PATCH's additions and removals, read. */
export interface CollectionChange {
  add: Owned;
  remove: Owned;
}

export function readCollectionPatch(body: unknown, catalogue: Catalogue): Read<CollectionChange> {
  const parsed = parseStrict(CollectionPatch, body);
  if (!parsed.ok) return { ok: false, details: parsed.details };
  const { add, add_text, remove, remove_text } = { ...parsed.output, ...asSent(body, ['add', 'remove']) };
  if ([add, add_text, remove, remove_text].every((p) => p === undefined))
    return { ok: false, details: [detail('', 'required', 'name copies to add or remove: add, add_text, remove or remove_text')] };
  const parts = [
    add && copiesOf(add, 'add', catalogue),
    add_text !== undefined ? textOf(add_text, 'add_text', catalogue) : undefined,
    remove && copiesOf(remove, 'remove', catalogue),
    remove_text !== undefined ? textOf(remove_text, 'remove_text', catalogue) : undefined,
  ];
  const details = parts.flatMap((p) => (p && !p.ok ? p.details : []));
  if (details.length > 0) return { ok: false, details };
  const value = (p: Read<Owned> | undefined) => (p?.ok ? p.value : {});
  return { ok: true, value: { add: summed(value(parts[0]), value(parts[1])), remove: summed(value(parts[2]), value(parts[3])) } };
}

/** Whether two collections hold the same copies of the same cards. */
export const sameCollection = (a: Owned, b: Owned): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([id, n]) => b[id] === n);

const summed = (a: Owned, b: Owned): Owned => {
  const out = { ...a };
  for (const [id, n] of Object.entries(b)) out[id] = (out[id] ?? 0) + n;
  return out;
};

/**
 * A collection after a change: additions first (a card's copies at most the limit: more is 422, nothing lost
 * silently), then removals (at least none left: removing more than owned leaves none, and the card goes).
 */
export function changedCollection(owned: Owned, change: CollectionChange): Read<Owned> {
  const out = summed(owned, change.add);
  const over = Object.keys(change.add).filter((id) => (out[id] ?? 0) > LIMITS.ownedCopies);
  if (over.length > 0)
    return {
      ok: false,
      details: over.map((id) =>
        detail(at('add', id), 'too_many', `${id}: ${out[id]} copies after the change; at most ${LIMITS.ownedCopies} are kept`),
      ),
    };
  for (const [id, n] of Object.entries(change.remove)) {
    const left = (out[id] ?? 0) - n;
    if (left > 0) out[id] = left;
    else delete out[id];
  }
  return { ok: true, value: out };
}

/** What a deck still needs of a collection (contract §12.3). */
export interface Missing {
  buildable: boolean;
  /** Copies to get, by card_id in base-62 order (the canonical code's, as parseDeckCode gives a deck's cards). */
  cards: CardCount[];
  /** Copies to get in all. */
  total: number;
  by_rarity: Record<Rarity, number>;
  /** Copies to get by the cards' own nation (neutral included); only nations with some. */
  by_nation: Partial<Record<CardFaction, number>>;
}

/** The copies of each of the deck's cards the collection lacks; a card the catalogue no longer knows counts in no rarity or nation. */
export function missingOf(deck: Deck, owned: Owned, catalogue: Catalogue): Missing {
  const by_rarity = Object.fromEntries(RARITIES.map((r) => [r, 0])) as Record<Rarity, number>;
  const by_nation: Partial<Record<CardFaction, number>> = {};
  const cards: CardCount[] = [];
  for (const { card_id, count } of deck.cards) {
    const need = count - (owned[card_id] ?? 0);
    if (need <= 0) continue;
    cards.push({ card_id, count: need });
    const card = catalogue.get(card_id);
    if (!card) continue;
    by_rarity[card.rarity] += need;
    by_nation[card.faction] = (by_nation[card.faction] ?? 0) + need;
  }
  const total = cards.reduce((n, c) => n + c.count, 0);
  return { buildable: total === 0, cards, total, by_rarity, by_nation };
}
