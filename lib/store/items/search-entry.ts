/**
 * The search entry (decks table): for each public deck, one small item per facet it can be found by — `all`,
 * `main:<faction>`, `ally:<faction>`, `tag:<tag>` (≤ 10) and `card:<card_id>` for each distinct card
 * (≤ 39) — each carrying the search item, the deck's card ids (for further card filters) and their copies
 * (`copies`: what a search works out from the deck's cards), and a sort key per order. A search page is then one Query of one facet on one sort's index, reading limit + 1
 * items, whatever the library's size. Entries exist only while a deck is public.
 *   pk SEARCH#<deck_id>  sk <facet>  { facet, by_date, by_views, by_likes, by_trending, cards, copies, …search item }
 * views, views_7d and likes here are the folded counts (see folds.ts), so a view never rewrites the index.
 */

import type { Deck } from '#rules/deck-code.ts';
import { PUBLIC_PLAIN, type PublicName, type PublicPlainValues, publicPlainOf } from '#rules/deck-fields.ts';
import type { FactionId } from '#rules/factions.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { facetsByFilter } from '#rules/search-filters.ts';
import type { Sort } from '#rules/sorts.ts';
import type { DecksIndex } from '../tables.ts';
import type { StoredDeck } from './deck.ts';
import { itemKind } from './kind.ts';

export type { Sort } from '#rules/sorts.ts';

export const SEARCH_ENTRY = itemKind('SEARCH#');
export const entryKey = (deckId: string, facet: string) => ({ pk: SEARCH_ENTRY.pk(deckId), sk: facet });
export const SORT_INDEX: Record<Sort, { index: DecksIndex; key: string }> = {
  date: { index: 'search_by_date', key: 'by_date' },
  views: { index: 'search_by_views', key: 'by_views' },
  likes: { index: 'search_by_likes', key: 'by_likes' },
  trending: { index: 'search_by_trending', key: 'by_trending' },
};

type Indexed = Pick<StoredDeck, 'visibility' | 'main_faction' | 'ally_faction' | 'tags' | 'deck_code' | 'archetype'>;

/** The id of a deck's kept archetype, as its entries hold it for search's `archetype=`; none: none. */
const archetypeIdOf = (d: Pick<StoredDeck, 'archetype'>): string[] => (d.archetype ? [d.archetype.id] : []);

/** The distinct card ids of a stored (canonical) deck code, in its canonical order. */
export const cardIdsOf = (d: Pick<StoredDeck, 'deck_code'>): string[] => parsedCode(d.deck_code).deck.cards.map((c) => c.card_id);

/**
 * The copies of each card of `cardIdsOf`, one digit a card in the same order (a deck holds 1 to 4 copies of a card):
 * with `cards`, the deck's cards and counts for what a search works out per entry (buildable_by, format, similar) — a
 * few dozen bytes an entry, where a list of numbers would cost three bytes a card more.
 */
export const copiesText = (d: Pick<StoredDeck, 'deck_code'>): string =>
  parsedCode(d.deck_code)
    .deck.cards.map((c) => c.count)
    .join('');

export const cardFacet = (cardId: string) => `card:${cardId}`;
/** The facet every public deck is in (a search with no filter). */
export const ALL_FACET = 'all';

/** The facets a deck is found by (none unless public); `cards` when its card ids are already at hand. */
export const facetsOf = (d: Indexed, cards?: string[]): string[] =>
  d.visibility === 'public'
    ? [ALL_FACET, ...facetsByFilter({ ...d, archetype_id: archetypeIdOf(d) }), ...(cards ?? cardIdsOf(d)).map(cardFacet)]
    : [];

const MAX_MILLIS = 9_999_999_999_999;
const MAX_COUNT = 999_999_999_999_999;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Ascending keys for descending orders; ties by id ascending. */
export const sortKeys = (d: Pick<StoredDeck, 'id' | 'created_at' | 'views' | 'likes' | 'views_7d'>): Record<`by_${Sort}`, string> => ({
  by_date: `${pad(MAX_MILLIS - Date.parse(d.created_at), 13)}#${d.id}`,
  by_views: `${pad(MAX_COUNT - d.views, 15)}#${d.id}`,
  by_likes: `${pad(MAX_COUNT - d.likes, 15)}#${d.id}`,
  by_trending: `${pad(MAX_COUNT - (d.views_7d ?? 0), 15)}#${d.id}`,
});

/** The text `q` matches: name and guide.system, lower-cased, kept apart so a match cannot span both. */
export const searchText = (name: string, system: string) => `${name}\u0000${system}`.toLowerCase();

function entryItem(d: StoredDeck, facet: string, cards: string[], copies: string): Record<string, unknown> {
  const system = d.guide?.system ?? '';
  return {
    ...entryKey(d.id, facet),
    facet,
    ...sortKeys(d),
    deck_id: d.id,
    // Not `share_slug`: that name would put every entry into the by_share_slug index.
    slug: d.share_slug,
    name: d.name,
    main_faction: d.main_faction,
    ally_faction: d.ally_faction,
    archetype: d.archetype ?? null,
    // What `archetype=` tests where another filter picked the partition (one value, or none).
    ...(d.archetype ? { archetype_id: d.archetype.id } : {}),
    ...publicPlainOf(d),
    system,
    display: d.display,
    author_name: d.author_name,
    views: d.views,
    views_7d: d.views_7d ?? 0,
    views_rev: d.views_rev,
    likes: d.likes,
    likes_changes: d.likes_changes,
    created_at: d.created_at,
    updated_at: d.updated_at,
    search_text: searchText(d.name, system),
    cards,
    copies,
  };
}

/** Every search entry of a deck (none unless public). */
export function entriesOf(d: StoredDeck): Record<string, unknown>[] {
  if (d.visibility !== 'public') return [];
  // The code is parsed once for the facets and the `cards` and `copies` every entry carries.
  const cards = cardIdsOf(d);
  const copies = copiesText(d);
  return facetsOf(d, cards).map((f) => entryItem(d, f, cards, copies));
}

/** A search entry as a search reads it. */
/** An entry's fields: its deck's public plain fields (deck-fields.ts) among them. */
export interface SearchEntry extends PublicPlainValues {
  deck_id: string;
  slug: string;
  name: string;
  main_faction: FactionId;
  ally_faction: FactionId;
  /** Absent on an entry written before entries carried it (`deckctl search reindex` writes it): none. */
  archetype?: StoredDeck['archetype'];
  system: string;
  display: StoredDeck['display'];
  author_name: string;
  views: number;
  /** Absent on an entry written before views of the week were kept (`deckctl search reindex` writes it). */
  views_7d?: number;
  likes: number;
  created_at: string;
  updated_at: string;
  facet: string;
  by_date: string;
  by_views: string;
  by_likes: string;
  by_trending?: string;
  pk: string;
  sk: string;
}

/**
 * What a search reads of an entry (its ProjectionExpression): every field of SearchEntry, the compiler
 * holding the two together — not the filter-only attributes (`cards`: up to 39 card ids an entry, and
 * `search_text`), which DynamoDB filters on but need not send.
 */
const READS: Record<keyof SearchEntry, true> = {
  pk: true,
  sk: true,
  facet: true,
  by_date: true,
  by_views: true,
  by_likes: true,
  by_trending: true,
  deck_id: true,
  slug: true,
  name: true,
  main_faction: true,
  ally_faction: true,
  archetype: true,
  ...(Object.fromEntries(PUBLIC_PLAIN.map((k) => [k, true])) as Record<PublicName, true>),
  system: true,
  display: true,
  author_name: true,
  views: true,
  views_7d: true,
  likes: true,
  created_at: true,
  updated_at: true,
};
export const SEARCH_READS = Object.keys(READS) as (keyof SearchEntry)[];
/** Fields as a Query's projection, each through a placeholder (`name`, `views`, `system` are reserved words). */
const projection = (fields: readonly string[]) => ({
  ProjectionExpression: fields.map((_, i) => `#r${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#r${i}`, field])),
});
export const SEARCH_PROJECTION = projection(SEARCH_READS);

/** An entry read with its deck's cards: what a search works out per deck (what a collection misses, a format, likeness). */
export interface CardedEntry extends SearchEntry {
  cards: string[];
  /** Absent on an entry written before entries carried copies (`deckctl search reindex` writes it). */
  copies?: string;
}
/** The search fields and the deck's cards: the same units read (DynamoDB bills the whole item), a few dozen bytes more sent. */
export const CARDED_PROJECTION = projection([...SEARCH_READS, 'cards', 'copies']);

/** The deck an entry is of (its nations, its cards and copies); undefined for an entry written before it carried copies. */
export function deckOfEntry(e: Pick<CardedEntry, 'main_faction' | 'ally_faction' | 'cards' | 'copies'>): Deck | undefined {
  if (e.copies === undefined || e.copies.length !== e.cards.length) return undefined;
  return { main: e.main_faction, ally: e.ally_faction, cards: e.cards.map((card_id, i) => ({ card_id, count: Number(e.copies?.[i]) })) };
}
