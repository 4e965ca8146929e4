import { type FactionId, MAIN_FACTION_IDS } from './factions.ts';
import { parsedCode } from './parsed-codes.ts';
import { urlCodeOf } from './url-code.ts';

/** What a public deck adds to the figures; null for any other deck (or none). */
export interface Contribution {
  main: FactionId;
  ally: FactionId;
  tags: string[];
  /** Copies by card id. */
  cards: Record<string, number>;
  /** Its archetype's id (contract §13.3); absent: none (or a contribution kept before archetypes were counted). */
  archetype?: string;
}

/** A deck as the figures read it (the deck item's fields, or a search entry's with its code). */
export interface Contributing {
  visibility?: string;
  main_faction: string;
  ally_faction: string;
  tags?: readonly string[];
  deck_code: string;
  archetype?: { id: string } | null;
}

export function contributionOf(deck: Contributing | undefined): Contribution | null {
  if (deck?.visibility !== 'public') return null;
  // A stored code (a deck item's, or a stream record's image of one): parsed once a container, as every stored code is.
  const { cards } = parsedCode(deck.deck_code).deck;
  return {
    main: deck.main_faction as FactionId,
    ally: deck.ally_faction as FactionId,
    tags: [...new Set(deck.tags ?? [])].sort(),
    cards: Object.fromEntries(cards.map((c) => [c.card_id, c.count])),
    ...(deck.archetype ? { archetype: deck.archetype.id } : {}),
  };
}

/** A contribution in one spelling (its cards by id): what a stored one, read back in any key order, is compared by. */
const canonical = (c: Contribution | null) =>
  c &&
  JSON.stringify([
    c.main,
    c.ally,
    [...c.tags].sort(),
    Object.entries(c.cards).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    c.archetype ?? null,
  ]);
export const sameContribution = (a: Contribution | null, b: Contribution | null): boolean => canonical(a) === canonical(b);

/** The pools card figures are kept for: each main faction, and each main/ally pair. */
export const mainPool = (main: string) => main;
export const pairPool = (main: string, ally: string) => `${main}:${ally}`;

/**
 * The pools whose sum is what `meta/cards` is asked for (contract §11.5): a main faction's (with an ally:
 * that pair's); an ally alone — the pairs of every main faction with it; neither — every main faction's (each
 * public deck has one main: their sum is the whole library). Kept figures are never more than the main and
 * pair pools: a read sums at most 5 of them, a write touches 2 whatever is asked.
 */
export function poolsAsked(main: FactionId | undefined, ally: FactionId | undefined, distinct = false): string[] {
  const asked = main
    ? [ally ? pairPool(main, ally) : mainPool(main)]
    : MAIN_FACTION_IDS.filter((m) => m !== ally).map((m) => (ally ? pairPool(m, ally) : mainPool(m)));
  return distinct ? asked.map(distinctPool) : asked;
}

/**
 * A pool's figures over distinct codes (`distinct=code`, contract §11.5): each canonical code counted once,
 * however many public decks hold it (eleven copies of one netdeck are one deck here). Kept beside the pool, in
 * an item of its own, moved only when a code's count of public decks goes from 0 or to 0 (codeCounts).
 */
export const distinctPool = (pool: string) => `=${pool}`;

/** A contribution's canonical code (its URL form: what a code's count is keyed by). */
export const codeOf = (c: Contribution): string =>
  urlCodeOf({ main: c.main, ally: c.ally, cards: Object.entries(c.cards).map(([card_id, count]) => ({ card_id, count })) });

/** A card's figures in a pool: the decks that play it, and their copies of it in all. */
export interface CardCount {
  decks: number;
  copies: number;
}
/**
 * A pool's change: its decks, and each card's decks and copies. Every collection keyed by text (a tag, a
 * card id, a pool) is a Map: a tag named `constructor` or `__proto__` is a key like any other.
 */
export interface PoolDelta {
  decks: number;
  cards: Map<string, CardCount>;
}
/**
 * The figures counted by a key — each the public decks that hold it — declared once: the keys a contribution adds
 * one to, and how a drift line names one. What a delta holds, adds, copies, keeps and compares of them is derived
 * from this; how each is stored is declared once too (store/items/plays.ts COUNTED_STORE).
 */
export const COUNTED = {
  /** Public decks by main/ally pair. */
  pairs: { keysOf: (c: Contribution) => [pairPool(c.main, c.ally)], named: (pair: string) => `pair ${pair}` },
  /** Public decks by tag. */
  tags: { keysOf: (c: Contribution) => c.tags, named: (tag: string) => `tag ${JSON.stringify(tag)}` },
  /** Public decks by canonical code. */
  codes: { keysOf: (c: Contribution) => [codeOf(c)], named: (code: string) => `code ${code}` },
  /** Public decks by archetype (contract §13.3: a rule's or a cluster's; none: not counted). */
  archetypes: { keysOf: (c: Contribution) => (c.archetype ? [c.archetype] : []), named: (id: string) => `archetype ${id}` },
} as const satisfies Record<string, { keysOf: (c: Contribution) => readonly string[]; named: (key: string) => string }>;
export type Counted = keyof typeof COUNTED;
export const COUNTED_NAMES = /* @__PURE__ */ Object.keys(COUNTED) as Counted[];
export type Counts = Record<Counted, Map<string, number>>;
const countsOf = (make: (name: Counted) => Map<string, number>): Counts =>
  Object.fromEntries(COUNTED_NAMES.map((name) => [name, make(name)])) as Counts;

/** What changes add up to: per card pool (distinct ones too), per counted figure's key, and the public decks in all. */
export interface Delta {
  decks: number;
  pools: Map<string, PoolDelta>;
  counts: Counts;
}

export const emptyDelta = (): Delta => ({ decks: 0, pools: new Map(), counts: countsOf(() => new Map()) });
export const emptyPool = (): PoolDelta => ({ decks: 0, cards: new Map() });

/** A map's entry, made when missing. */
const entry = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
};
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** Adds `sign` × a contribution's cards into its pools (or their distinct twins). */
function addToPools(into: Delta, c: Contribution, sign: 1 | -1, name: (pool: string) => string): void {
  for (const pool of [mainPool(c.main), pairPool(c.main, c.ally)]) {
    const s = entry(into.pools, name(pool), emptyPool);
    s.decks += sign;
    for (const [id, copies] of Object.entries(c.cards)) {
      const card = entry(s.cards, id, () => ({ decks: 0, copies: 0 }));
      card.decks += sign;
      card.copies += sign * copies;
    }
  }
}

/** Adds `sign` × a contribution into `into`. */
function addContribution(into: Delta, c: Contribution | null, sign: 1 | -1): void {
  if (!c) return;
  into.decks += sign;
  addToPools(into, c, sign, (pool) => pool);
  for (const name of COUNTED_NAMES) for (const key of COUNTED[name].keysOf(c)) add(into.counts[name], key, sign);
}

/**
 * The distinct pools' change (added into `into`): a code whose public decks go from none to some adds its cards
 * once, one whose decks go to none takes them away; any other change of a code's count moves nothing. `had` is
 * each changed code's count as stored; `contributionOf` gives a code's contribution (any deck's of it: they differ
 * only in tags, which distinct pools do not hold).
 */
export function addDistinct(
  into: Delta,
  had: ReadonlyMap<string, number>,
  contributionOf: (code: string) => Contribution | undefined,
): Delta {
  for (const [code, n] of into.counts.codes) {
    const before = had.get(code) ?? 0;
    const after = Math.max(0, before + n);
    if (before > 0 === after > 0) continue;
    const c = contributionOf(code);
    if (c) addToPools(into, c, after > 0 ? 1 : -1, distinctPool);
  }
  return into;
}

/** What a deck's change from `before` to `after` adds, added into `into` (a batch's changes summed). */
export function addChange(into: Delta, before: Contribution | null, after: Contribution | null): Delta {
  addContribution(into, before, -1);
  addContribution(into, after, 1);
  return into;
}

/** A copy of a delta (what a chunk would add with one more change, tried without touching the chunk's own). */
export const copyDelta = (d: Delta): Delta => ({
  decks: d.decks,
  pools: new Map([...d.pools].map(([k, s]) => [k, { decks: s.decks, cards: new Map([...s.cards].map(([id, c]) => [id, { ...c }])) }])),
  counts: countsOf((name) => new Map(d.counts[name])),
});

/** A delta without its zeros: what must be written. */
export function nonZero(d: Delta): Delta {
  const keep = <T>(m: Map<string, T>, zero: (v: T) => boolean) => new Map([...m].filter(([, v]) => !zero(v)));
  const pools = new Map<string, PoolDelta>();
  for (const [pool, s] of d.pools) {
    const cards = keep(s.cards, (c) => c.decks === 0 && c.copies === 0);
    if (s.decks !== 0 || cards.size > 0) pools.set(pool, { decks: s.decks, cards });
  }
  return {
    decks: d.decks,
    pools,
    counts: countsOf((name) => keep(d.counts[name], (n) => n === 0)),
  };
}

/** Pools added up: their decks, each card's decks and copies, and the latest of their times. */
export function sumPools(pools: readonly { decks: number; cards: ReadonlyMap<string, CardCount>; as_of: string | null }[]): {
  decks: number;
  cards: Map<string, CardCount>;
  as_of: string | null;
} {
  const cards = new Map<string, CardCount>();
  let decks = 0;
  let as_of: string | null = null;
  for (const s of pools) {
    decks += s.decks;
    if (s.as_of !== null && (as_of === null || s.as_of > as_of)) as_of = s.as_of;
    for (const [id, c] of s.cards) {
      const sum = entry(cards, id, () => ({ decks: 0, copies: 0 }));
      sum.decks += c.decks;
      sum.copies += c.copies;
    }
  }
  return { decks, cards, as_of };
}

/** The figures of a whole library: the deltas of every public deck from nothing (a recount). */
export const recount = (decks: Iterable<Contribution | null>): Delta => {
  const total = emptyDelta();
  const byCode = new Map<string, Contribution>();
  for (const c of decks) {
    addChange(total, null, c);
    if (c) byCode.set(codeOf(c), c);
  }
  // Every code from none: each counted once in the distinct pools.
  return nonZero(addDistinct(total, new Map(), (code) => byCode.get(code)));
};

/** What differs between two figure sets, a line each: `<figure>: <stored> → <recounted>`. */
export function drift(stored: Delta, counted: Delta): string[] {
  const lines: string[] = [];
  const compare = (name: string, a: number | undefined, b: number | undefined) => {
    if ((a ?? 0) !== (b ?? 0)) lines.push(`${name}: ${a ?? 0} → ${b ?? 0}`);
  };
  const keys = <K>(a: ReadonlyMap<K, unknown> | undefined, b: ReadonlyMap<K, unknown> | undefined) =>
    new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
  compare('public decks', stored.decks, counted.decks);
  for (const pool of keys(stored.pools, counted.pools)) {
    const [a, b] = [stored.pools.get(pool), counted.pools.get(pool)];
    compare(`cards ${pool}: decks`, a?.decks, b?.decks);
    for (const id of keys(a?.cards, b?.cards)) {
      compare(`cards ${pool}: ${id} decks`, a?.cards.get(id)?.decks, b?.cards.get(id)?.decks);
      compare(`cards ${pool}: ${id} copies`, a?.cards.get(id)?.copies, b?.cards.get(id)?.copies);
    }
  }
  for (const name of COUNTED_NAMES) {
    const [a, b] = [stored.counts[name], counted.counts[name]];
    for (const key of keys(a, b)) compare(COUNTED[name].named(key), a.get(key), b.get(key));
  }
  return lines;
}
