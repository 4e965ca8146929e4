/**
 * The query parameters of each route, declared once (valibot): the shared middleware stack parses a
 * request's query with its route's schema (a bad value is 400 invalid_parameter, naming it), the
 * endpoint gets the typed result, and the OpenAPI document lists the same parameters with the same
 * limits, enums and defaults. Unknown parameters are ignored.
 */
import * as v from 'valibot';
import { CARD_ID, CARD_TYPES, RARITIES } from '#rules/card.ts';
import { DECK_SIZE } from '#rules/deck-rules.ts';
import { FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { FORMATS } from '#rules/formats.ts';
import { ARCHETYPE_ID, ARCHETYPE_ID_CHARS, PERIOD, SHARE_SLUG, UUID } from '#rules/ids.ts';
import { INVISIBLE } from '#rules/invisible.ts';
import { LIMITS } from '#rules/limits.ts';
import { normalizeTag } from '#rules/schemas.ts';
import type { IndexFilterParam } from '#rules/search-filters.ts';
import { SORTS } from '#rules/sorts.ts';
import { lang } from './language-query.ts';

export { CardLanguageQuery } from './language-query.ts';

/** Numbered pages reach this far (page × limit), as GitHub's search does; deeper, walk with next_cursor (§8.1). */
export const MAX_PAGE_DEPTH = 1_000;
export const TEXT_QUERY_CHARS = 100;

/** What the document says of a parameter whose schema turns text into something else. */
const described = <T>(openapi: Record<string, unknown>) => v.metadata<T, { openapi: Record<string, unknown> }>({ openapi });

/** An integer from `min` to `max` (a query parameter is text); `over` is what a value over `max` is told. */
const integer = (name: string, min: number, max: number, fallback: number, over = `${name} is an integer from ${min} to ${max}`) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} is an integer from ${min} to ${max}`),
      v.transform((s: string) => Number(s)),
      v.minValue(min, `${name} is an integer from ${min} to ${max}`),
      v.maxValue(max, over),
      described<number>({ type: 'integer', minimum: min, maximum: max, default: fallback }),
    ),
    String(fallback),
  );

/** One of `values`; given twice, API Gateway joins the values with a comma (none of them holds one): said so. */
const picklist = <T extends string>(name: string, values: readonly T[], fallback?: T) =>
  v.pipe(
    v.string(),
    v.check((s) => !s.includes(','), `${name} is given once: one of ${values.join(', ')}`),
    v.picklist(values as unknown as [T, ...T[]], `${name} must be one of ${values.join(', ')}`),
    described<T>({ type: 'string', enum: [...values], ...(fallback ? { default: fallback } : {}) }),
  );
/** One of `values`, or absent. */
const oneOf = <T extends string>(name: string, values: readonly T[]) => v.optional(picklist(name, values));
/** One of `values`, `fallback` when absent. */
const oneOfOr = <T extends string>(name: string, values: readonly T[], fallback: T) =>
  v.optional(picklist(name, values, fallback), fallback);

/** Free text: trimmed and lower-cased; absent when empty; bounded; nothing invisible (what tags and systems cannot hold). */
const text = (name: string, max: number, normalise: (s: string) => string = (s) => s.toLowerCase()) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => normalise(s.trim())),
      v.check((s) => !INVISIBLE.test(s), `${name} has no control, format, separator, private-use or unassigned characters`),
      v.check((s) => [...s].length <= max, `${name} is at most ${max} characters`),
      v.transform((s: string) => s || undefined),
      described<string | undefined>({ type: 'string', maxLength: max }),
    ),
  );

/** An archetype's id (contract §13.3): decks of that archetype. */
const archetypeId = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => ARCHETYPE_ID.test(s) && s.length <= ARCHETYPE_ID_CHARS,
        `${name} is an archetype's id: lower-case words of letters and digits joined by -, at most ${ARCHETYPE_ID_CHARS} characters`,
      ),
      described<string>({
        type: 'string',
        pattern: ARCHETYPE_ID.source,
        maxLength: ARCHETYPE_ID_CHARS,
        description: 'Decks of this archetype (its id)',
      }),
    ),
  );

/** A deck to compare (contract §9.2): a share slug, or a deck code (URL-encoded in the query; it starts with %%). Required. */
const required = (name: string) => `${name} is required: a share slug or a URL-encoded deck code`;
const deckRef = (name: string) =>
  v.pipe(
    v.string(required(name)),
    v.trim(),
    v.minLength(1, required(name)),
    v.check((s) => [...s].length <= LIMITS.deckCodeChars, `${name} is at most ${LIMITS.deckCodeChars} characters`),
    described<string>({ type: 'string', minLength: 1, maxLength: LIMITS.deckCodeChars }),
  );
/** GET /api/v1/decks/diff. */
export const DiffQuery = v.object(
  { from: deckRef('from'), to: deckRef('to') },
  // A parameter left out is told so by name (valibot's own message names the key as a JSON string).
  (issue) => required(String(issue.expected).replaceAll('"', '')),
);

/** Most `card` (and most `exclude_card`) values one search takes (contract §8.5). */
export const MAX_CARD_FILTERS = 4;

/**
 * A repeatable card id (`card=2B&card=3C`): API Gateway joins repeated values with commas, and a card id
 * holds none, so the list is split there. Distinct ids, in the order given. Whether each id is in the
 * catalogue is the endpoint's check (the catalogue is not part of the declaration).
 */
const cardIds = (name: string, meaning: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string) => s.split(',')),
      v.check((ids) => ids.length <= MAX_CARD_FILTERS, `${name} is given at most ${MAX_CARD_FILTERS} times`),
      v.check((ids) => ids.every((id) => CARD_ID.test(id)), `${name} is a card id: 1-64 characters of [0-9A-Za-z_.:-]`),
      v.transform((ids: string[]) => [...new Set(ids)]),
      described<string[]>({
        type: 'array',
        items: { type: 'string', pattern: CARD_ID.source },
        maxItems: MAX_CARD_FILTERS,
        description: `${meaning}: a card id of the catalogue; repeatable, at most ${MAX_CARD_FILTERS} times`,
      }),
    ),
  );

const cursor = v.optional(
  v.pipe(v.string(), described<string>({ type: 'string', description: 'meta.next_cursor of the previous answer, exactly as issued' })),
);

/** Each index filter's parameter (lib/rules/search-filters.ts), read as text: the compiler holds the two to each other. */
export const INDEX_FILTER_PARAMS = {
  archetype: archetypeId('archetype'),
  q: text('q', TEXT_QUERY_CHARS),
  main_faction: oneOf('main_faction', MAIN_FACTION_IDS),
  ally_faction: oneOf('ally_faction', FACTION_IDS as readonly FactionId[]),
  tag: text('tag', LIMITS.tagChars, normalizeTag),
} satisfies Record<IndexFilterParam, v.GenericSchema<string | undefined, string | undefined>>;

/** What picks public decks, in a search and in its feed alike. */
const DECK_FILTER_PARAMS = {
  ...INDEX_FILTER_PARAMS,
  card: cardIds('card', 'Decks that hold this card (every one given)'),
  exclude_card: cardIds('exclude_card', 'Decks that hold none of these cards'),
  format: oneOf('format', FORMATS),
};

export const SearchQuery = v.object({
  ...DECK_FILTER_PARAMS,
  buildable_by: v.optional(
    v.pipe(
      v.string(),
      v.regex(UUID, 'buildable_by is a user_id'),
      described<string>({
        type: 'string',
        pattern: UUID.source,
        description: "Decks this account's collection can build (with missing_max): with a key of that account holding collection:read",
      }),
    ),
  ),
  missing_max: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,2}$/, `missing_max is an integer from 0 to ${DECK_SIZE}`),
      v.transform((s: string) => Number(s)),
      v.maxValue(DECK_SIZE, `missing_max is an integer from 0 to ${DECK_SIZE}`),
      described<number>({
        type: 'integer',
        minimum: 0,
        maximum: DECK_SIZE,
        // No `default` in the document: a reference's "try it" sends a parameter's default, and this one alone is a 400.
        description: 'With buildable_by: the most copies a deck may still need (0, the default: buildable now)',
      }),
    ),
  ),
  sort: oneOfOr('sort', SORTS, 'date'),
  page: integer('page', 1, MAX_PAGE_DEPTH, 1, `page × limit is at most ${MAX_PAGE_DEPTH}; walk further with meta.next_cursor`),
  limit: integer('limit', 1, 50, 20),
  cursor,
});

/** The newest entries a feed holds (contract §13.5: at most 50). */
export const FEED_ENTRIES = 50;

/** An Atom feed of public decks (contract §13.5): search's filters, the newest first; no key, no cursor (the newest alone). */
export const FeedQuery = v.object({
  ...DECK_FILTER_PARAMS,
  limit: integer('limit', 1, FEED_ENTRIES, FEED_ENTRIES),
});

export const OwnerListQuery = v.object({ limit: integer('limit', 1, 100, 50), cursor });

/** An account's export (contract §9.4): 25 decks a page, by cursor. */
export const ExportQuery = v.object({ cursor });

/** A deck's versions, the owner's and the public's (contract §9.2). */
export const VersionsQuery = v.object({ limit: integer('limit', 1, 100, 20), cursor });

export const CardQuery = v.object({
  lang,
  faction: oneOf('faction', [...FACTION_IDS, 'neutral'] as const),
  type: oneOf('type', CARD_TYPES),
  rarity: oneOf('rarity', RARITIES),
  derived: oneOf('derived', ['true', 'false'] as const),
  q: text('q', TEXT_QUERY_CHARS),
  page: integer('page', 1, 1_000_000, 1),
  limit: integer('limit', 1, 200, 50),
  cursor,
});

/** The card pool's period the archetypes' figures are of (contract §13.3): the rules in use's, the one there is. */
const period = v.optional(
  v.pipe(
    v.string(),
    v.regex(PERIOD, 'period is a period of the card pool: the month it began, YYYY-MM'),
    described<string>({
      type: 'string',
      pattern: PERIOD.source,
      description:
        "The card pool's period (YYYY-MM): the figures are those of the rules in use, whose period meta.period names; another is 404",
    }),
  ),
);

/** The archetypes the library plays (contract §13.3): of one main nation, or all, a page at a time. */
export const ArchetypesQuery = v.object({
  lang,
  period,
  main_faction: oneOf('main_faction', MAIN_FACTION_IDS),
  limit: integer('limit', 1, 50, 20),
  cursor,
});

export const ArchetypeQuery = v.object({ lang, period });

/** What a faction's decks play (contract §10.3): its cards by share, paged by cursor. */
export const PlayedCardsQuery = v.object({
  lang,
  main_faction: oneOf('main_faction', MAIN_FACTION_IDS),
  ally_faction: oneOf('ally_faction', FACTION_IDS),
  type: oneOf(
    'type',
    CARD_TYPES.filter((t) => t !== 'headquarters'),
  ),
  /** `code`: decks with the same canonical code counted once (contract §11.5); the default counts every public deck. */
  distinct: oneOf('distinct', ['code'] as const),
  limit: integer('limit', 1, 200, 50),
  cursor,
});

/** What a deck still needs of the caller's collection (contract §12.3): a deck by its code (any form, or a link or the game's text), or a saved deck by its share slug. */
export const MissingQuery = v.object({
  lang,
  code: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(LIMITS.deckTextChars, `code has at most ${LIMITS.deckTextChars} characters`),
      v.description("A deck code (%% form or URL form), a kards.com deck-builder link, or the game's text export of a deck."),
    ),
  ),
  slug: v.optional(
    v.pipe(
      v.string(),
      v.regex(SHARE_SLUG, 'slug is a share slug: 12 characters of [A-Za-z0-9]'),
      v.description('A public or unlisted deck by its share slug.'),
    ),
  ),
});
