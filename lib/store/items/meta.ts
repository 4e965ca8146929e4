/**
 * What the library plays (contract §10.3; lib/rules/meta.ts), kept from the decks table's changes by the
 * store-change worker (lib/store/meta.ts). Each figure is a number an update ADDs to, so a batch's
 * changes, summed, are one write an item whatever their count:
 *   pk META#cards     sk <main> | <main>:<ally>  { decks, as_of, "d:<card_id>": decks, "c:<card_id>": copies }
 *   pk META#factions  sk ALL                     { decks, as_of, "p:<main>:<ally>": decks }
 *   pk META#tags      sk <shard 00–15>           { "t:<tag>": decks }   (a tag's shard: a hash of it)
 * and, for each public deck, what it adds now — so that a change is applied once, whatever retries
 * or repeats of its stream record (the worker writes the figures and this in one transaction, on the
 * condition that this is still what it read):
 *   pk METAOF#<deck_id>  sk META  { main, ally, tags, cards: { <card_id>: copies }, rev }
 * A card scope's item holds at most every card a faction pair can play (the catalogue's size, not the
 * library's); a meta read is one GetItem, or one Query of the 16 tag shards.
 */
import { createHash } from 'node:crypto';
import type { Contribution } from '#rules/meta.ts';
import { itemKind } from './kind.ts';

export const META = itemKind('META#');
export const META_OF = itemKind('METAOF#');

export const cardsKey = (scope: string) => ({ pk: META.pk('cards'), sk: scope });
export const factionsKey = () => ({ pk: META.pk('factions'), sk: 'ALL' });
export const TAG_SHARDS = 16;
export const tagsPk = () => META.pk('tags');
export const tagShard = (tag: string): string =>
  String(createHash('sha256').update(tag).digest().readUInt16BE(0) % TAG_SHARDS).padStart(2, '0');
export const tagsKey = (shard: string) => ({ pk: tagsPk(), sk: shard });
export const contributionKey = (deckId: string) => ({ pk: META_OF.pk(deckId), sk: 'META' });

/** The attribute names of a figure. */
export const ATTR = {
  cardDecks: (id: string) => `d:${id}`,
  cardCopies: (id: string) => `c:${id}`,
  pair: (pair: string) => `p:${pair}`,
  tag: (tag: string) => `t:${tag}`,
} as const;

/** A card scope's item as its figures. */
export function scopeOf(item: Record<string, unknown> | undefined): {
  decks: number;
  cards: Record<string, { decks: number; copies: number }>;
  as_of: string | null;
} {
  const cards: Record<string, { decks: number; copies: number }> = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    const figure = name.startsWith('d:') ? 'decks' : name.startsWith('c:') ? 'copies' : undefined;
    if (!figure) continue;
    const card = cards[name.slice(2)] ?? { decks: 0, copies: 0 };
    card[figure] = Number(value);
    cards[name.slice(2)] = card;
  }
  return { decks: Number(item?.decks ?? 0), cards, as_of: (item?.as_of as string | undefined) ?? null };
}

/** Numbers by name under a prefix (`p:`, `t:`). */
export const figuresUnder = (item: Record<string, unknown> | undefined, prefix: string): Record<string, number> =>
  Object.fromEntries(
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
  const { main, ally, tags, cards, rev } = item as {
    main: Contribution['main'];
    ally: Contribution['ally'];
    tags: string[];
    cards: Record<string, number>;
    rev: number;
  };
  return { contribution: main ? { main, ally, tags: [...(tags ?? [])].sort(), cards: cards ?? {} } : null, rev: Number(rev ?? 0) };
}
