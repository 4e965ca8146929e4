/**
 * Every response shape of the API, declared once (valibot): the response builders are typed by
 * them (deck-bodies.ts) and the OpenAPI document is generated from them (lib/docs/openapi.ts).
 * Strict objects: a field that is not declared here is a field the document does not promise.
 */
import * as v from 'valibot';
import { SAMPLE_DECKS } from '#rules/archetype-figures.ts';
import { TREND_WEEKS } from '#rules/archetype-trend.ts';
import { BULK_TYPES } from '#rules/bulk.ts';
import { CARD_TYPES, RARITIES } from '#rules/card.ts';
import { PUBLIC_CHANGES, VERSIONED_FIELDS } from '#rules/changed-fields.ts';
import { LISTED_PLAIN_ANSWERS, PLAIN_ANSWERS, PUBLIC_PLAIN_ANSWERS, UNLISTED_PLAIN_ANSWERS } from '#rules/deck-fields.ts';
import { DECK_SIZE } from '#rules/deck-rules.ts';
import { DETAIL_CODES } from '#rules/details.ts';
import { type CardFaction, FACTION_IDS, type FactionId } from '#rules/factions.ts';
import { SHARE_SLUG } from '#rules/ids.ts';
import { DECK_TYPES, FORMATS } from '#rules/insight.ts';
import * as R from '#rules/schemas.ts';
import { VISIBILITIES } from '#rules/schemas.ts';
import { SCOPES } from '#rules/scopes.ts';
import { answered } from './answered.ts';
import { API_VERSION } from './envelope-constants.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const faction = v.picklist(FACTION_IDS as unknown as [FactionId, ...FactionId[]]);
const cardId = v.string();

export const CardCount = v.strictObject({ card_id: cardId, count: v.pipe(v.number(), v.integer(), v.minValue(1)) });
/**
 * The guide and the archive's sections: declared once, with the rules (lib/rules/schemas.ts), their
 * answer shapes derived from that declaration (answered.ts).
 */
export const Guide = answered(R.Guide);
/** The guide in lists: without its description. */
export const GuideSummary = answered(v.omit(R.Guide, ['description']));
export const KeyComponents = answered(R.KeyComponents);
export const Alternatives = answered(R.Alternatives);
export const ChartSettings = answered(R.ChartSettings);
/** Sections may be null in decks stored long ago (requirement §2 rule 3's "old records"): clients accept both. */
export const Archive = v.strictObject({
  key_components: v.nullable(KeyComponents),
  alternatives: v.nullable(Alternatives),
  chart_settings: v.nullable(ChartSettings),
});
export const Display = v.strictObject({ featured_card_id: v.nullable(cardId), card_back_id: v.nullable(v.string()) });
export const Author = v.strictObject({ display_name: v.string() });

const identity = {
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  main_faction: faction,
  ally_faction: faction,
  deck_code: v.string(),
  cards_snapshot: v.array(CardCount),
};
const counts = { views: count, likes: count };
const times = { created_at: timestamp, updated_at: timestamp };
const shareSlug = v.pipe(v.string(), v.regex(SHARE_SLUG));

/** A failed rule (contract §2): in an error's details, and in a deck's legality. */
export const Detail = v.strictObject({ path: v.string(), code: v.picklist(DETAIL_CODES), message: v.string() });
/** Counts of the deck's 39 cards (contract §8.6). */
export const Stats = v.strictObject({
  by_kredits: v.record(v.pipe(v.string(), v.regex(/^\d+$/)), count),
  by_type: v.strictObject(Object.fromEntries(DECK_TYPES.map((t) => [t, count])) as Record<(typeof DECK_TYPES)[number], typeof count>),
  by_rarity: v.strictObject(Object.fromEntries(RARITIES.map((r) => [r, count])) as Record<(typeof RARITIES)[number], typeof count>),
  ally_cards: count,
  neutral_cards: count,
});
/** A format's verdict: legal (the deck is, and no card breaks the format), and the cards that break it. */
const FormatLegality = v.strictObject({
  legal: v.boolean(),
  issues: v.array(v.strictObject({ card_id: v.string(), message: v.string() })),
});
/** The deck rules against the catalogue the service runs with now (contract §8.6). */
export const Legality = v.strictObject({
  valid: v.boolean(),
  errors: v.array(Detail),
  /** Ranked play (contract §11.5): not legal when the deck is not, or holds a card of the Reserve pool (named here). */
  ranked: v.strictObject({ legal: v.boolean(), reserved_cards: v.array(v.string()) }),
  /** Formats players run events in (contract §12.3): pauper (no special or elite card), singleton (one copy of each), monodeck (no ally card). */
  formats: v.strictObject(
    Object.fromEntries(FORMATS.map((f) => [f, FormatLegality])) as Record<(typeof FORMATS)[number], typeof FormatLegality>,
  ),
});
/** A deck's archetype (contract §13.3): by a rule of the rules in use, or by cluster; null when none takes it. */
export const Archetype = v.nullable(
  v.strictObject({
    id: v.string(),
    name: v.pipe(v.string(), v.description("In the language asked where the answer has one (its English name's fallback), else English.")),
    by: v.picklist(['rule', 'cluster']),
  }),
);
/** The OTK chart (contract §8.6): per item, the chance of at least `required` of its pool in the first n cards. */
export const OtkChart = v.strictObject({
  items: v.array(
    v.strictObject({
      card_ids: v.array(cardId),
      required: count,
      label: v.nullable(v.string()),
      pool_copies: count,
      by_draws: v.pipe(v.array(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), v.length(DECK_SIZE)),
    }),
  ),
});

/** An item of the owner's list: the owner deck without guide.description and archive. */
export const OwnerListItem = v.strictObject({
  ...identity,
  ...LISTED_PLAIN_ANSWERS,
  share_slug: shareSlug,
  guide: v.nullable(GuideSummary),
  display: Display,
  ...counts,
  ...times,
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
/** The owner deck (contract §3). */
export const OwnerDeck = v.strictObject({
  ...OwnerListItem.entries,
  archetype: Archetype,
  ...UNLISTED_PLAIN_ANSWERS,
  guide: v.nullable(Guide),
  archive: Archive,
  stats: Stats,
  legality: Legality,
});
/** The public deck (contract §3): never visibility, sort_order, version or the owner. */
export const PublicDeck = v.strictObject({
  ...identity,
  archetype: Archetype,
  ...PUBLIC_PLAIN_ANSWERS,
  display: Display,
  guide: v.nullable(Guide),
  archive: Archive,
  author: Author,
  ...counts,
  views_7d: count,
  ...times,
  stats: Stats,
  legality: Legality,
});
/** A search result (contract §3). */
export const SearchItem = v.strictObject({
  id: identity.id,
  share_slug: shareSlug,
  name: v.string(),
  main_faction: faction,
  ally_faction: faction,
  archetype: Archetype,
  ...PUBLIC_PLAIN_ANSWERS,
  system: v.string(),
  display: Display,
  author: Author,
  ...counts,
  views_7d: count,
  ...times,
  /** With buildable_by: the copies the collection still lacks (none: buildable now). */
  missing: v.optional(
    v.strictObject({
      total: count,
      cards: v.array(v.strictObject({ card_id: cardId, count: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
    }),
  ),
});
/** A deck like another (contract §12.3): its search item and how alike, Σ min(copies) / Σ max(copies). */
export const SimilarDeck = v.strictObject({ ...SearchItem.entries, score: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) });
/** The normalised deck of a validate answer: content without server fields. */
export const DeckContent = v.strictObject({
  name: v.string(),
  main_faction: faction,
  ally_faction: faction,
  deck_code: v.string(),
  cards_snapshot: v.array(CardCount),
  archetype: Archetype,
  ...PLAIN_ANSWERS,
  guide: v.nullable(Guide),
  archive: Archive,
  display: Display,
});
export const ValidateResult = v.strictObject({ valid: v.literal(true), deck: DeckContent });
/** One side of a diff: the deck compared (its canonical code). */
const DiffSide = v.strictObject({ deck_code: v.string(), name: v.string(), main_faction: faction, ally_faction: faction });
/** Two decks compared (contract §9.2): copies added and removed (the change), kept (both hold), sorted by card id; both decks' stats. */
export const DeckDiff = v.strictObject({
  from: DiffSide,
  to: DiffSide,
  added: v.array(CardCount),
  removed: v.array(CardCount),
  kept: v.array(CardCount),
  stats: v.strictObject({ from: Stats, to: Stats }),
});
/** What changed from the version before (contract §9.2): copies added and removed. */
const VersionCards = v.strictObject({ added: v.array(CardCount), removed: v.array(CardCount) });
const versionNumber = v.pipe(v.number(), v.integer(), v.minValue(1));
const versionSummary = {
  version: versionNumber,
  updated_at: timestamp,
  deck_code: v.string(),
  name: v.string(),
  main_faction: faction,
  ally_faction: faction,
};
/** An item of a deck's history, as its owner sees it (contract §9.2). */
export const VersionListItem = v.strictObject({
  ...versionSummary,
  visibility: v.picklist(VISIBILITIES),
  changed: v.array(v.picklist(VERSIONED_FIELDS)),
  cards: VersionCards,
});
/** An item of a public deck's history: no visibility; `changed` names only what the public sees. */
export const PublicVersionListItem = v.strictObject({
  ...versionSummary,
  changed: v.array(v.picklist(PUBLIC_CHANGES)),
  cards: VersionCards,
});
/** One version of a deck: the owner deck as it was, without views and likes (not versioned). */
export const DeckVersion = v.strictObject(v.omit(OwnerDeck, ['views', 'likes']).entries);
/** One page of an account's export: its account, up to 25 decks whole, and (on the first page) the slugs it likes. */
export const AccountExport = v.strictObject({
  account: v.strictObject({ user_id: v.string(), display_name: v.string(), created_at: v.string() }),
  decks: v.array(OwnerDeck),
  likes: v.array(v.string()),
  /** On the first page: the copies the account owns by card_id (contract §12.3; empty when it keeps none); null for a key without collection:read. */
  collection: v.nullable(v.record(cardId, v.pipe(v.number(), v.integer(), v.minValue(1)))),
});
/** A player's collection (contract §12.3): copies owned by card_id, its version (the ETag) and when it last changed. */
export const Collection = v.strictObject({
  cards: v.record(cardId, v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** Copies owned in all, and distinct cards. */
  copies: count,
  distinct: count,
  version: count,
  updated_at: v.nullable(timestamp),
});
const cardFaction = v.picklist([...FACTION_IDS, 'neutral'] as unknown as [CardFaction, ...CardFaction[]]);
/** What a deck still needs of the caller's collection (contract §12.3). */
export const MissingCards = v.strictObject({
  deck_code: v.string(),
  main_faction: faction,
  ally_faction: faction,
  buildable: v.boolean(),
  /** Copies to get, in all. */
  total: count,
  cards: v.array(
    v.strictObject({
      card_id: cardId,
      count: v.pipe(v.number(), v.integer(), v.minValue(1)),
      /** In the answer's language (English where the catalogue has none); null for a card the catalogue no longer has. */
      name: v.nullable(v.string()),
      rarity: v.nullable(v.picklist(RARITIES)),
      nation: v.nullable(cardFaction),
    }),
  ),
  by_rarity: v.strictObject(Object.fromEntries(RARITIES.map((r) => [r, count])) as Record<(typeof RARITIES)[number], typeof count>),
  by_nation: v.record(cardFaction, count),
});
/** An account's key as its owner sees it (contract §9.4): never its secret or hash. */
export const KeyItem = v.strictObject({
  key_id: v.string(),
  label: v.string(),
  scopes: v.array(v.picklist(SCOPES)),
  status: v.picklist(['active', 'revoked', 'expired']),
  created_at: v.string(),
  expires_at: v.nullable(v.string()),
});
/** A key just made: its secret, shown this once. */
export const CreatedKey = v.strictObject({
  ...KeyItem.entries,
  api_key: v.pipe(v.string(), v.regex(/^dlk_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/)),
});
export const RevokedKey = v.strictObject({ key_id: v.string(), revoked: v.literal(true) });
export const ErasedAccount = v.strictObject({
  user_id: v.string(),
  deleted: v.literal(true),
  decks: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export const ReplaceResult = v.strictObject({
  deck_code: v.string(),
  name: v.string(),
  main_faction: faction,
  ally_faction: faction,
  cards_snapshot: v.array(CardCount),
});
export const DeleteResult = v.strictObject({ id: identity.id, deleted: v.literal(true) });
export const LikeResult = v.strictObject({ share_slug: shareSlug, liked: v.boolean(), likes: count });
export const Card = v.strictObject({
  card_id: cardId,
  name: v.string(),
  faction: v.picklist([...FACTION_IDS, 'neutral'] as unknown as [CardFaction, ...CardFaction[]]),
  type: v.picklist(CARD_TYPES),
  rarity: v.picklist(RARITIES),
  kredits: count,
  set: v.string(),
  derived: v.boolean(),
  exile: v.nullable(faction),
});

/** A served language (contract §11.5): its tag as `lang` takes it, its name in itself. */
export const Language = v.strictObject({
  tag: v.string(),
  name: v.string(),
  /** The language card names come in when `tag` is asked: it, or `en` where the catalogue lacks it. */
  card_names: v.string(),
});

/** A card of a deck code (contract §10.2): null where the catalogue does not know the card (legality names it). */
export const CodeCard = v.strictObject({
  card_id: cardId,
  name: v.nullable(v.string()),
  kredits: v.nullable(count),
  type: v.nullable(v.picklist(CARD_TYPES)),
  rarity: v.nullable(v.picklist(RARITIES)),
  faction: v.nullable(v.picklist([...FACTION_IDS, 'neutral'] as unknown as [CardFaction, ...CardFaction[]])),
  count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)),
});
/** Any deck code's facts (contract §10.2): no account, nothing stored. */
export const CodeFacts = v.strictObject({
  deck_code: v.string(),
  url_code: v.string(),
  main_faction: faction,
  ally_faction: faction,
  name: v.string(),
  cards: v.array(CodeCard),
  stats: Stats,
  legality: Legality,
  archetype: Archetype,
  links: v.strictObject({
    page: v.pipe(v.string(), v.url()),
    image: v.pipe(
      v.string(),
      v.url(),
      v.description(
        'Its image, 1200×900, drawn to be read where it is shown 400 px wide: what a chat embed, as Discord’s, shows (size=wide asks for the 1200×630 large card).',
      ),
    ),
    preview: v.pipe(v.string(), v.url(), v.description('The image link previews show (og:image): the same picture as image.')),
  }),
});

/** A card of a bulk file's deck: its id, its import id (its 2-character id in deck codes: the same, lib/rules/bulk.ts) and its copies. */
export const BulkCard = v.strictObject({
  card_id: cardId,
  import_id: v.string(),
  count: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
/**
 * A line of the bulk `decks` file (contract §12.2): a public deck as search lists it (its counts folded as search's
 * are), with its canonical code, its cards, its guide's description, its version and its links.
 */
export const BulkDeck = v.strictObject({
  ...SearchItem.entries,
  deck_code: v.string(),
  cards: v.array(BulkCard),
  description: v.string(),
  version: versionNumber,
  links: v.strictObject({ page: v.pipe(v.string(), v.url()), image: v.pipe(v.string(), v.url()), preview: v.pipe(v.string(), v.url()) }),
});
/** A bulk file as `GET /api/v1/bulk-data` lists it (Scryfall's bulk-data shape, with its digest, its records and the schema of what it holds). */
export const BulkFile = v.strictObject({
  /** Scryfall's object kind, so that a client of its bulk data reads this one unchanged. */
  object: v.literal('bulk_data'),
  id: v.pipe(v.string(), v.uuid()),
  /** This entry's own URL (GET /api/v1/bulk-data/{id}). */
  uri: v.pipe(v.string(), v.url()),
  type: v.picklist(BULK_TYPES),
  name: v.string(),
  description: v.string(),
  updated_at: timestamp,
  download_uri: v.pipe(v.string(), v.url()),
  size: count,
  content_type: v.string(),
  content_encoding: v.literal('gzip'),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  records: count,
  schema: v.pipe(v.string(), v.url()),
});

/** A card of what a faction's public decks play (contract §10.3). */
export const PlayedCard = v.strictObject({
  card_id: cardId,
  name: v.string(),
  decks: count,
  share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  average_copies: v.pipe(v.number(), v.minValue(0), v.maxValue(4)),
});
/** Its meta: a page's, the decks the figures are over and when they last changed. */
export const PlayedCardsMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  decks: count,
  as_of: v.nullable(timestamp),
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
});
/** The main/ally pairs of public decks and their most used tags (contract §10.3). */
export const PlayedFactions = v.strictObject({
  pairs: v.array(
    v.strictObject({ main_faction: faction, ally_faction: faction, decks: count, share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) }),
  ),
  tags: v.array(v.strictObject({ tag: v.string(), decks: count })),
});
/** The bulk `plays` file (contract §12.2): the library's card figures as meta/cards answers them unfiltered, and meta/factions'. */
export const BulkPlays = v.strictObject({
  decks: count,
  as_of: v.nullable(timestamp),
  cards: v.array(PlayedCard),
  factions: PlayedFactions,
});
/**
 * An archetype as what the library plays (contract §13.3): its public decks and their share of all public decks, its
 * key cards (a rule's: the cards it holds, and those of its sets; a cluster's: its core and its tech).
 */
export const ArchetypeFigure = v.strictObject({
  id: v.string(),
  name: v.string(),
  by: v.picklist(['rule', 'cluster']),
  main_faction: faction,
  decks: count,
  share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  key_cards: v.strictObject({ core: v.array(cardId), tech: v.array(cardId) }),
  trend: v.pipe(
    v.array(
      v.strictObject({
        week: v.pipe(v.string(), v.isoDate(), v.description('The Monday (UTC) the week began')),
        share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      }),
    ),
    v.maxLength(TREND_WEEKS),
    v.description(
      `Its share of the public decks in each of the last ${TREND_WEEKS} weeks kept (oldest first; the week in progress last, its share now; a past week as the daily job last saw it)`,
    ),
  ),
  samples: v.pipe(
    v.array(SearchItem),
    v.maxLength(SAMPLE_DECKS),
    v.description(`Its ${SAMPLE_DECKS} most viewed public decks, as search lists them (read as asked: a deck made private is never one)`),
  ),
});
const archetypesPeriod = v.pipe(
  v.nullable(v.string()),
  v.description('The period of the card pool the rules in use are of (their file: YYYY-MM)'),
);
export const ArchetypesMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  decks: count,
  as_of: v.nullable(timestamp),
  period: archetypesPeriod,
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
});
export const ArchetypeMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  decks: count,
  as_of: v.nullable(timestamp),
  period: archetypesPeriod,
});
export const PlayedFactionsMeta = v.strictObject({ api_version: v.literal(API_VERSION), decks: count, as_of: v.nullable(timestamp) });

// --- envelopes ---------------------------------------------------------------------------------------------
export { API_VERSION };
export const Meta = v.strictObject({ api_version: v.literal(API_VERSION) });
/** One bulk file's entry as GET /api/v1/bulk-data/{id|type} answers it: Scryfall's bulk_data object, with the envelope's meta. */
export const BulkFileOne = v.strictObject({ ...BulkFile.entries, meta: Meta });
/** The bulk files' listing, in Scryfall's list shape (`object`, `has_more`, `data`) and with the envelope's meta. */
export const BulkList = v.strictObject({
  object: v.literal('list'),
  has_more: v.literal(false),
  data: v.array(BulkFile),
  meta: Meta,
});

/** The export's meta (contract §9.4): has_more, next_cursor (null on the last page). */
export const ExportMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
  /** What the export leaves out because the key lacks the scope its own route asks (empty when nothing is). */
  left_out: v.array(v.strictObject({ field: v.literal('collection'), needs_scope: v.literal('collection:read') })),
});
/** A list's meta (contract §2): page, limit, has_more, next_cursor (null on the last page). */
export const ListMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1)),
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
});
/** The card list's meta: a list's, and the number of matching cards. */
export const CardListMeta = v.strictObject({ ...ListMeta.entries, total: count });

export type Out<S extends v.GenericSchema> = v.InferOutput<S>;
