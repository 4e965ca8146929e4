/**
 * What the library plays (contract §10.3; lib/rules/plays.ts), kept from the decks table's changes by the
 * store-change worker (lib/store/plays.ts). Each figure is a number an update ADDs to, so a batch's
 * changes, summed, are one write an item whatever their count:
 *   pk META#cards     sk <main> | <main>:<ally>  { decks, as_of, "d:<card_id>": decks, "c:<card_id>": copies }
 *   pk META#factions  sk ALL                     { decks, as_of, "p:<main>:<ally>": decks, "a:<archetype id>": decks }
 *   pk METATAG#<tag>  sk TAG                     { tag, decks, tag_board: "TAGS", tag_rank }   (a used tag's own item)
 * and, for each public deck, what it adds now — so that a change is applied once, whatever retries
 * or repeats of its stream record (the worker writes the figures and this in one transaction, on the
 * condition that this is still what it read):
 *   pk METAOF#<deck_id>  sk PLAYS  { main, ally, tags, cards: { <card_id>: copies }, rev }
 * and, for `distinct=code` (contract §11.5), each canonical code's count of public decks (deleted at 0), and the
 * card pools again over distinct codes (sk `=<main>`, `=<main>:<ally>`), moved only when a code's count leaves or
 * reaches 0:
 *   pk METACODE#<url code>  sk CODE  { decks }
 * Bounds (contract §11.1): a card pool's item holds at most every card a faction pair can play (the
 * catalogue's size, not the library's); the factions' item at most every pair (45); a tag's item one tag
 * (≤ 32 characters), and a tag no public deck holds any more has none (its item is deleted at 0), so no
 * item grows with the library or with the tags its owners ever tried. The most used tags are read in order
 * from the `tags_by_decks` index (its sort key the tag's rank: most decks first, then the tag), TOP_TAGS
 * of them: a meta read is one GetItem, or one GetItem and one Query of TOP_TAGS small items.
 * Up to this version the tags were kept as attributes of 16 shard items (pk META#tags, sk 00–15): one
 * attribute per tag ever used, never removed. `deckctl meta recount` makes the tags' items from the public
 * decks and deletes those shards (LEGACY_TAG_SHARDS).
 */
import type { CardCount, Contribution, Counted } from '#rules/plays.ts';
import { tagRank } from '#rules/plays-shown.ts';
import { type ItemKind, itemKind } from './kind.ts';

// The prefixes are stored names, kept from when the feature was called meta in code (contract: the `/meta/`
// routes): renaming them would leave every figure unread until a recount.
export const PLAYS = itemKind('META#');
export const PLAYS_OF = itemKind('METAOF#');
export const PLAYS_TAG = itemKind('METATAG#');
export const PLAYS_CODE = itemKind('METACODE#');

export const cardsKey = (pool: string) => ({ pk: PLAYS.pk('cards'), sk: pool });
export const factionsKey = () => ({ pk: PLAYS.pk('factions'), sk: 'ALL' });
/** The partition key of the 16 tag shards of earlier versions (removed by `deckctl meta recount`). */
export const LEGACY_TAG_SHARDS = PLAYS.pk('tags');
export const tagKey = (tag: string) => ({ pk: PLAYS_TAG.pk(tag), sk: 'TAG' });
/** The index of the tags by rank, and the one partition of it every tag's item is in. */
/** The tags' index (its definition, typed among the decks table's indexes: tables.ts, which imports this). */
export const TAGS_INDEX = 'tags_by_decks';
export const TAG_BOARD = 'TAGS';
/** A tag's item as written: its figure, and its place in the index of tags by rank. */
export const tagItem = (tag: string, decks: number) => ({
  ...tagKey(tag),
  tag,
  decks,
  tag_board: TAG_BOARD,
  tag_rank: tagRank(tag, decks),
});
/** A tag's item (or the index's projection of one) as its figure. */
export const tagFigureOf = (item: Record<string, unknown>): [string, number] => [String(item.tag), Number(item.decks ?? 0)];
export const contributionKey = (deckId: string) => ({ pk: PLAYS_OF.pk(deckId), sk: 'META' });
/** A canonical code's count of public decks (its URL form). */
export const codeKey = (code: string) => ({ pk: PLAYS_CODE.pk(code), sk: 'CODE' });

/** The attribute names of a card pool's figures. */
export const ATTR = {
  cardDecks: (id: string) => `d:${id}`,
  cardCopies: (id: string) => `c:${id}`,
} as const;

/** A counted figure kept in the factions' item: an attribute a key (`<attr><key>`), ADDed to. */
export interface CountedInFactions {
  attr: string;
}
/** A counted figure kept in an item a key: written on the condition that it still holds the decks read; deleted at 0. */
export interface CountedItems {
  kind: ItemKind;
  key: (key: string) => Record<string, string>;
  /** Its item as written (key included). */
  item: (key: string, decks: number) => Record<string, unknown>;
  /** The figure's key of a stored item. */
  keyOf: (item: Record<string, unknown>) => string;
}
export type CountedStore = CountedInFactions | CountedItems;
const inItems = (s: CountedStore): s is CountedItems => 'kind' in s;

/** Where each counted figure (rules/plays.ts COUNTED) is kept, declared once: the writes, reads, recount and grants follow. */
export const COUNTED_STORE = {
  pairs: { attr: 'p:' },
  archetypes: { attr: 'a:' },
  tags: { kind: PLAYS_TAG, key: tagKey, item: tagItem, keyOf: (item) => tagFigureOf(item)[0] },
  codes: {
    kind: PLAYS_CODE,
    key: codeKey,
    item: (code, decks) => ({ ...codeKey(code), decks }),
    keyOf: (item) => String(item.pk).slice(PLAYS_CODE.prefix.length),
  },
} as const satisfies Record<Counted, CountedStore>;
const STORES = /* @__PURE__ */ Object.entries(COUNTED_STORE) as [Counted, CountedStore][];
/** The counted figures kept an item a key, each with where (derived once: the worker's writes, its reads, the recount). */
export const COUNTED_IN_ITEMS = /* @__PURE__ */ STORES.flatMap(([name, s]) => (inItems(s) ? [[name, s] as const] : []));
/** The counted figures kept in the factions' item, each with its attribute prefix. */
export const COUNTED_IN_FACTIONS = /* @__PURE__ */ STORES.flatMap(([name, s]) => (inItems(s) ? [] : [[name, s] as const]));
/** The counted figures kept in the factions' item. */
export type InFactions = { [K in Counted as (typeof COUNTED_STORE)[K] extends CountedInFactions ? K : never]: Map<string, number> };
/** The counted figures a factions' item holds, each by its key. */
export const inFactionsOf = (item: Record<string, unknown> | undefined): InFactions =>
  Object.fromEntries(COUNTED_IN_FACTIONS.map(([name, s]) => [name, figuresUnder(item, s.attr)])) as InFactions;

/** The item kinds of the counted figures kept an item a key (the store-change worker's grants). */
export const COUNTED_KINDS = /* @__PURE__ */ COUNTED_IN_ITEMS.map(([, s]) => s.kind);

/** A card pool's item as its figures. */
export function poolOf(item: Record<string, unknown> | undefined): {
  decks: number;
  cards: Map<string, CardCount>;
  as_of: string | null;
} {
  const cards = new Map<string, CardCount>();
  for (const [name, value] of Object.entries(item ?? {})) {
    const figure = name.startsWith('d:') ? 'decks' : name.startsWith('c:') ? 'copies' : undefined;
    if (!figure) continue;
    const card = cards.get(name.slice(2)) ?? { decks: 0, copies: 0 };
    card[figure] = Number(value);
    cards.set(name.slice(2), card);
  }
  return { decks: Number(item?.decks ?? 0), cards, as_of: (item?.as_of as string | undefined) ?? null };
}

/** Numbers by name under a prefix (`p:`). */
export const figuresUnder = (item: Record<string, unknown> | undefined, prefix: string): Map<string, number> =>
  new Map(
    Object.entries(item ?? {})
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, value]) => [name.slice(prefix.length), Number(value)]),
  );

/** A deck's stored contribution, and the revision a change of it must find. */
export interface StoredContribution {
  contribution: Contribution | null;
  rev: number;
}
export function contributionFrom(item: Record<string, unknown> | undefined): StoredContribution {
  if (!item) return { contribution: null, rev: 0 };
  const { main, ally, tags, cards, archetype, rev } = item as {
    main: Contribution['main'];
    ally: Contribution['ally'];
    tags: string[];
    cards: Record<string, number>;
    archetype?: string;
    rev: number;
  };
  return {
    contribution: main ? { main, ally, tags: [...(tags ?? [])].sort(), cards: cards ?? {}, ...(archetype ? { archetype } : {}) } : null,
    rev: Number(rev ?? 0),
  };
}
