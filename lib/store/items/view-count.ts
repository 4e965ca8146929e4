/**
 * A deck's stored views (decks table): one item a deck, bounded by a constant (a count, an ordinal, a
 * revision and 8 day slots), whatever the library's size (contract §11.1) — a shared read pays for its own
 * deck's count only, and a views window writes each deck it saw once.
 *   pk VIEWCOUNT#<share_slug>  sk VIEWS  { views: its exact total, applied: the ordinal of the last view batch
 *                                          of its group in it (view-log.ts), rev: its writes (the order of a
 *                                          fold: folds.ts), d0 … d7: the UTC day slot S holds
 *                                          (lib/rules/week.ts), n0 … n7: its views of that day, opened: the
 *                                          last day the daily opener opened (open-day.ts), migrated: the legacy
 *                                          bucket whose count it took, once (view-migration.ts),
 *                                          deck, main, ally: while its deck is public, its id and factions —
 *                                          the boards a view offers it to (boards.ts; set by the store-change
 *                                          worker, and by `deckctl boards build`) }
 * Its repository is view-counts.ts. Up to this version a deck's count was an attribute of one of 64 shared
 * bucket items (view-bucket.ts: legacy), which grew with the library; `deckctl views migrate` moves them here.
 */
import { DAY_SLOTS, type DaySlot } from '#rules/week.ts';
import { itemKind } from './kind.ts';

export const VIEW_COUNT = itemKind('VIEWCOUNT#');
export const viewCountKey = (slug: string) => ({ pk: VIEW_COUNT.pk(slug), sk: 'VIEWS' });
/** The share slug a count's key names. */
export const slugOfCount = (pk: string): string => pk.slice(VIEW_COUNT.prefix.length);

export const SLOTS = Array.from({ length: DAY_SLOTS }, (_, slot) => slot);
/** A slot's attributes: the day it holds, and the views of that day. */
export const dayAttr = (slot: number) => `d${slot}`;
export const viewsAttr = (slot: number) => `n${slot}`;

/** A count as stored (an item, or a stream image of one). */
export interface StoredCount {
  views: number;
  applied: number;
  rev: number;
  /** The day each slot holds (undefined: never opened). */
  days: (number | undefined)[];
  slots: DaySlot[];
  /** The day its week ends, as the count knows it: the latest of its slots' days and the day it was opened. */
  day: number | undefined;
  /** It holds the count of a legacy view bucket (moved by `deckctl views migrate`: view-migration.ts). */
  migrated: boolean;
  /** While its deck is public: the deck's id and factions (the boards its views are offered to). */
  listed?: Listed;
}

/** A public deck as its count knows it. */
export interface Listed {
  deck: string;
  main: string;
  ally: string;
}
/** The attributes of a count that say its deck is public, and where. */
export const LISTED_ATTRS = ['deck', 'main', 'ally'] as const satisfies readonly (keyof Listed)[];

export function countOf(item: Record<string, unknown> | undefined): StoredCount {
  const days = SLOTS.map((slot) => (item?.[dayAttr(slot)] === undefined ? undefined : Number(item[dayAttr(slot)])));
  const slots = SLOTS.flatMap((slot) => {
    const day = days[slot];
    return day === undefined ? [] : [{ day, views: Number(item?.[viewsAttr(slot)] ?? 0) }];
  });
  const known = [...days.filter((d) => d !== undefined), ...(item?.opened === undefined ? [] : [Number(item.opened)])];
  return {
    views: Number(item?.views ?? 0),
    applied: Number(item?.applied ?? 0),
    rev: Number(item?.rev ?? 0),
    days,
    slots,
    day: known.length ? Math.max(...known) : undefined,
    migrated: item?.migrated !== undefined,
    ...(item?.deck === undefined
      ? {}
      : { listed: { deck: String(item.deck), main: String(item.main ?? ''), ally: String(item.ally ?? '') } }),
  };
}
