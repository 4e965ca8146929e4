/**
 * The card catalogue model (contract §1) and its two file formats: the project's own and the
 * kards.com card API's. Pure: turns parsed JSON into a Catalogue, or throws CatalogueFormatError.
 */
import * as v from 'valibot';
import { CARD_ID, CARD_TYPES, type Card, type CardType, RARITIES, type Rarity } from './card.ts';
import { type CardFaction, FACTION_BY_NATION, FACTION_IDS, type FactionId } from './factions.ts';

export { CARD_TYPES, type Card, type CardType, RARITIES, type Rarity };

export interface Catalogue {
  readonly cards: readonly Card[];
  get(cardId: string): Card | undefined;
}

export class CatalogueFormatError extends Error {
  override readonly name = 'CatalogueFormatError';
}

export function makeCatalogue(cards: readonly Card[]): Catalogue {
  const byId = new Map<string, Card>();
  for (const card of cards) {
    if (byId.has(card.card_id)) throw new CatalogueFormatError(`card_id ${card.card_id} appears twice`);
    byId.set(card.card_id, card);
  }
  return { cards, get: (id) => byId.get(id) };
}

const FactionIdSchema = v.picklist(FACTION_IDS as FactionId[]);

/** The project's own card format: exactly the Card model. */
const ProjectCardSchema = v.strictObject({
  card_id: v.pipe(v.string(), v.regex(CARD_ID)),
  name: v.pipe(v.string(), v.nonEmpty()),
  faction: v.picklist([...FACTION_IDS, 'neutral'] as CardFaction[]),
  type: v.picklist(CARD_TYPES),
  rarity: v.picklist(RARITIES),
  kredits: v.pipe(v.number(), v.integer(), v.minValue(0)),
  set: v.string(),
  derived: v.boolean(),
  exile: v.nullable(FactionIdSchema),
});

const nation = v.pipe(
  v.string(),
  v.check((s) => s in FACTION_BY_NATION, 'unknown nation'),
  v.transform((s) => FACTION_BY_NATION[s] as CardFaction),
);
const lower = <T extends readonly string[]>(values: T) =>
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.transform((s) => (s === 'location' || s === 'hq' ? 'headquarters' : s)),
    v.picklist(values),
  );

/** The kards.com card API format (extra fields ignored; `reserved` does not affect legality). */
const KardsCardSchema = v.pipe(
  v.object({
    id: v.string(),
    importId: v.string(),
    name: v.string(),
    nation,
    type: lower(CARD_TYPES),
    rarity: lower(RARITIES),
    set: v.string(),
    kredits: v.optional(v.pipe(v.number(), v.integer()), 0),
    exile: v.nullish(nation, null),
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
    }),
  ),
);

/**
 * The compiled form: the project's card format, already checked (at synth, by parseCatalogue), marked
 * so that a function loads it with no schema validation — only JSON.parse and the id index.
 */
export const COMPILED_FORMAT = 'deck-library-catalogue/compiled-1';

export const compileCatalogue = (catalogue: Catalogue): string => JSON.stringify({ format: COMPILED_FORMAT, cards: catalogue.cards });

/** Parses a catalogue file's JSON: an array of cards in either format (or `{ cards: [...] }`), or the compiled form. */
export function parseCatalogue(json: unknown): Catalogue {
  if ((json as { format?: unknown } | null)?.format === COMPILED_FORMAT) return makeCatalogue((json as { cards: Card[] }).cards);
  const records = Array.isArray(json) ? json : (json as { cards?: unknown } | null)?.cards;
  if (!Array.isArray(records)) throw new CatalogueFormatError('a catalogue is a JSON array of cards');
  const kards = records.some((r) => typeof r === 'object' && r !== null && 'importId' in r);
  const schema = kards ? KardsCardSchema : ProjectCardSchema;
  const cards = records.map((record, i) => {
    const result = v.safeParse(schema, record);
    if (!result.success) {
      const issue = result.issues[0];
      const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
      throw new CatalogueFormatError(`card [${i}]${where ? `.${where}` : ''}: ${issue.message}`);
    }
    return result.output as Card;
  });
  return makeCatalogue(cards);
}
