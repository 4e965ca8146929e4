/**
 * The card catalogue model (contract §1) and its three file formats: the project's own, the kards.com
 * card API's, and the compiled form synth ships (columns, already checked). Pure: turns parsed JSON
 * into a Catalogue, or throws CatalogueFormatError.
 */
import * as v from 'valibot';
import { CARD_ID, CARD_TYPES, type Card, type CardType, RARITIES, type Rarity } from './card.ts';
import { type CardFaction, FACTION_BY_NATION, FACTION_IDS, type FactionId } from './factions.ts';
import { holdsInvisible, INVISIBLE } from './invisible.ts';
import { DEFAULT_LANGUAGE, LANGUAGE } from './languages.ts';

export { CARD_TYPES, type Card, type CardType, RARITIES, type Rarity };

export interface Catalogue {
  readonly cards: readonly Card[];
  get(cardId: string): Card | undefined;
  /** The languages its cards are named in (English always). */
  readonly languages: ReadonlySet<string>;
}

export class CatalogueFormatError extends Error {
  override readonly name = 'CatalogueFormatError';
}

/** The languages cards are named in, from their names by language (English always). */
const languagesOf = (names: readonly (Card['names'] | null)[]): ReadonlySet<string> =>
  new Set([DEFAULT_LANGUAGE, ...names.flatMap((n) => Object.keys(n ?? {}))]);

export function makeCatalogue(cards: readonly Card[]): Catalogue {
  const byId = new Map<string, Card>();
  for (const card of cards) {
    if (byId.has(card.card_id)) throw new CatalogueFormatError(`card_id ${card.card_id} appears twice`);
    byId.set(card.card_id, card);
  }
  let languages: ReadonlySet<string> | undefined;
  return {
    cards,
    get: (id) => byId.get(id),
    get languages() {
      languages ??= languagesOf(cards.map((c) => c.names));
      return languages;
    },
  };
}

const FactionIdSchema = v.picklist(FACTION_IDS as FactionId[]);

/**
 * What a card may hold, so that no answer that shows cards grows past its bounds (contract §10.4) whatever
 * a catalogue holds: kredits 0–30 (the game's cards cost 0–15), a name of at most 80 characters in any
 * language (three times the longest English title of the real catalogue, 26), and an import id that is a
 * deck code's 2-character id.
 */
export const CARD_BOUNDS = { kredits: 30, nameChars: 80 } as const;
/** Text a reader sees as it is (a catalogue's names and sets reach pages, images, embeds and deck.txt): as display names are. */
const visible = (what: string) => v.check<string, string>((s) => !INVISIBLE.test(s), holdsInvisible(what));
const cardName = v.pipe(
  v.string(),
  v.nonEmpty(),
  v.check((s) => [...s].length <= CARD_BOUNDS.nameChars, `a card's name is at most ${CARD_BOUNDS.nameChars} characters`),
  visible("a card's name"),
);
const kredits = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(CARD_BOUNDS.kredits, `kredits are 0-${CARD_BOUNDS.kredits}`));

/** The project's own card format: exactly the Card model. */
const ProjectCardSchema = v.strictObject({
  card_id: v.pipe(v.string(), v.regex(CARD_ID)),
  name: cardName,
  faction: v.picklist([...FACTION_IDS, 'neutral'] as CardFaction[]),
  type: v.picklist(CARD_TYPES),
  rarity: v.picklist(RARITIES),
  kredits,
  set: v.pipe(v.string(), visible("a card's set")),
  derived: v.boolean(),
  exile: v.nullable(FactionIdSchema),
  reserved: v.optional(v.boolean()),
  // Its name by language (contract §10.1): files without it still load, English only.
  names: v.optional(v.record(v.pipe(v.string(), v.regex(LANGUAGE, 'a language is a primary tag (en, de, zh)')), cardName)),
});

/** A card as the service loads it (the project's format), or the first thing wrong with it (`field: message`). */
export function checkCard(card: unknown): string | undefined {
  const result = v.safeParse(ProjectCardSchema, card);
  if (result.success) return undefined;
  const issue = result.issues[0];
  return `${issue.path?.map((p) => String(p.key)).join('.') ?? ''}: ${issue.message}`;
}

/** A nation of the kards.com card API: one of its own names (never a name every object has, such as `constructor`). */
const nation = v.pipe(
  v.string(),
  v.check((s) => Object.hasOwn(FACTION_BY_NATION, s), 'unknown nation'),
  v.transform((s) => FACTION_BY_NATION[s] as CardFaction),
);
const lower = <T extends readonly string[]>(values: T) =>
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.transform((s) => (s === 'location' || s === 'hq' ? 'headquarters' : s)),
    v.picklist(values),
  );

/** The kards.com card API format (extra fields ignored; `reserved` marks the Reserve pool: ranked legality, never legality). */
const KardsCardSchema = v.pipe(
  v.object({
    id: v.string(),
    // A deck code's id, or none (a card no code can hold: its longer id stands in).
    importId: v.pipe(v.string(), v.regex(/^(?:[0-9A-Za-z]{2})?$/, "an import id is a deck code's 2-character id, or empty")),
    name: cardName,
    nation,
    type: lower(CARD_TYPES),
    rarity: lower(RARITIES),
    set: v.pipe(v.string(), visible("a card's set")),
    kredits: v.optional(kredits, 0),
    exile: v.nullish(nation, null),
    reserved: v.optional(v.boolean(), false),
  }),
  v.transform(
    (c): Card => ({
      // A card that can never stand in a deck code has no importId; its longer id stands in.
      card_id: c.importId !== '' ? c.importId : c.id,
      name: c.name,
      faction: c.nation,
      type: c.type as CardType,
      rarity: c.rarity as Rarity,
      kredits: c.kredits,
      set: c.set,
      derived: c.set === 'OnlySpawnable',
      exile: c.exile === null || c.exile === 'neutral' ? null : c.exile,
      ...(c.reserved ? { reserved: true } : {}),
    }),
  ),
);

/** One card of the kards.com card API format (as it comes, unchecked) as a card; one that does not map throws, naming its field. */
export function kardsCard(raw: unknown): Card {
  const result = v.safeParse(KardsCardSchema, raw);
  if (result.success) return result.output;
  const issue = result.issues[0];
  throw new CatalogueFormatError(`${issue.path?.map((p) => String(p.key)).join('.') ?? ''}: ${issue.message}`);
}

/**
 * The compiled form: the project's card format, already checked (at synth, by parseCatalogue), marked
 * so that a function loads it with no schema validation and no index to build — only JSON.parse.
 * Cards are stored by column (a column of each field, in catalogue order), with the ids sorted beside
 * their positions for a binary search: JSON.parse then makes a few arrays rather than an object per
 * card, and a card object is made when it is first asked for. (With the real 1,488 cards, an object
 * per card and a Map of them were most of a catalogue function's cold start beyond the demo's.)
 */
export const COMPILED_FORMAT = 'deck-library-catalogue/compiled-4';
type Columns = { [F in keyof Card]-?: (Card[F] | null)[] };
interface Compiled {
  format: typeof COMPILED_FORMAT;
  columns: Columns;
  /** Every card_id, sorted by UTF-16 code units (as `<` compares them). */
  ids: string[];
  /** The position in the columns of each id in `ids`. */
  at: number[];
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function compileCatalogue({ cards }: Catalogue): string {
  const column = <F extends keyof Card>(field: F) => cards.map((c) => c[field]);
  const columns: Columns = {
    card_id: column('card_id'),
    name: column('name'),
    faction: column('faction'),
    type: column('type'),
    rarity: column('rarity'),
    kredits: column('kredits'),
    set: column('set'),
    derived: column('derived'),
    exile: column('exile'),
    reserved: cards.map((c) => c.reserved ?? null),
    names: cards.map((c) => c.names ?? null),
  };
  const at = cards.map((_, i) => i).sort((a, b) => byCodeUnits((cards[a] as Card).card_id, (cards[b] as Card).card_id));
  const compiled: Compiled = { format: COMPILED_FORMAT, columns, ids: at.map((i) => (cards[i] as Card).card_id), at };
  return JSON.stringify(compiled);
}

/** A compiled catalogue as parsed: each card made (once) when first asked for, all of them when `cards` is read. */
function compiledCatalogue({ columns: c, ids, at }: Compiled): Catalogue {
  const made: Card[] = [];
  const card = (i: number): Card =>
    (made[i] ??= {
      card_id: c.card_id[i] as string,
      name: c.name[i] as string,
      faction: c.faction[i] as Card['faction'],
      type: c.type[i] as CardType,
      rarity: c.rarity[i] as Rarity,
      kredits: c.kredits[i] as number,
      set: c.set[i] as string,
      derived: c.derived[i] as boolean,
      exile: c.exile[i] as Card['exile'],
      ...(c.reserved[i] ? { reserved: true } : {}),
      ...(c.names[i] ? { names: c.names[i] as Card['names'] } : {}),
    });
  let all: readonly Card[] | undefined;
  let languages: ReadonlySet<string> | undefined;
  return {
    // From the names column: no card object is made for it.
    get languages() {
      languages ??= languagesOf(c.names);
      return languages;
    },
    get cards() {
      all ??= c.card_id.map((_, i) => card(i));
      return all;
    },
    get(id) {
      let [lo, hi] = [0, ids.length - 1];
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const order = byCodeUnits(ids[mid] as string, id);
        if (order === 0) return card(at[mid] as number);
        if (order < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}

/** Parses a catalogue file's JSON: an array of cards in either format (or `{ cards: [...] }`), or the compiled form. */
export function parseCatalogue(json: unknown): Catalogue {
  if ((json as { format?: unknown } | null)?.format === COMPILED_FORMAT) return compiledCatalogue(json as Compiled);
  const raws = Array.isArray(json) ? json : (json as { cards?: unknown } | null)?.cards;
  if (!Array.isArray(raws)) throw new CatalogueFormatError('a catalogue is a JSON array of cards');
  const kards = raws.some((r) => typeof r === 'object' && r !== null && 'importId' in r);
  const schema = kards ? KardsCardSchema : ProjectCardSchema;
  const cards = raws.map((raw, i) => {
    const result = v.safeParse(schema, raw);
    if (!result.success) {
      const issue = result.issues[0];
      const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
      throw new CatalogueFormatError(`card [${i}]${where ? `.${where}` : ''}: ${issue.message}`);
    }
    return result.output as Card;
  });
  return makeCatalogue(cards);
}
