/**
 * The scale bench's library (scale.ts): public decks made as players make them, from a seed, so that every run
 * at a size holds the same library. Each deck has 10–39 distinct cards of its catalogue (39 copies, each card at
 * most its rarity's limit, at most 12 of the ally), 0–3 tags of a Zipf(1.0) vocabulary of 200, and a main and
 * ally faction drawn as the real codes of ../shared/reference/kards/real_deck_codes.json spread them (each pair
 * the codes hold weighted by how often they hold it, every other legal pair once, so no faction is left out).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { archetypeRules } from '#catalogue/archetypes.ts';
import { archetypeAnswer } from '#rules/archetype-of.ts';
import type { Card, Catalogue } from '#rules/catalogue.ts';
import { type CardCount, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { ALLY_LIMIT, COPY_LIMIT, DECK_SIZE } from '#rules/deck-rules.ts';
import { deckName, FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { deckableCards, storedDeck } from '../../test/support/decks.ts';

/** A small fast PRNG (mulberry32): the same seed, the same library. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws 0 … n-1 with weights 1/(rank+1) (Zipf, s = 1): a binary search of the cumulative weights. */
export function zipf(n: number, next: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const x = next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const TAGS = Array.from({ length: 200 }, (_, i) => `tag${i}`);
const SYSTEMS = ['Blitz', 'Control', 'Tempo', 'Ramp', 'Aggro', 'Midrange'];

/** The main/ally pairs and their weights: the real codes' spread, each other legal pair once. */
function pairWeights(): { main: FactionId; ally: FactionId; weight: number }[] {
  const path = resolve(import.meta.dirname, '../../../shared/reference/kards/real_deck_codes.json');
  const codes = JSON.parse(readFileSync(path, 'utf8')) as { code: string }[];
  const seen = new Map<string, number>();
  for (const { code } of codes) {
    try {
      const d = parseDeckCode(code);
      seen.set(`${d.main}/${d.ally}`, (seen.get(`${d.main}/${d.ally}`) ?? 0) + 1);
    } catch {
      // A code of a form this parser does not read: not counted.
    }
  }
  return MAIN_FACTION_IDS.flatMap((main) =>
    FACTION_IDS.filter((ally) => ally !== main).map((ally) => ({ main, ally, weight: 1 + 4 * (seen.get(`${main}/${ally}`) ?? 0) })),
  );
}

/** A deck's cards: `distinct` cards of main and ally, 39 copies in all, each within its limit, at most 12 of the ally. */
function cardsOf(cat: Catalogue, main: FactionId, ally: FactionId, distinct: number, next: () => number): CardCount[] | undefined {
  const pick = (pool: Card[], n: number) => {
    const copy = [...pool];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as Card, copy[i] as Card];
    }
    return copy.slice(0, n);
  };
  const allyDistinct = Math.min(ALLY_LIMIT, Math.max(1, Math.round(distinct * (0.15 + 0.2 * next()))));
  const chosen = [
    ...pick(deckableCards(cat, main), distinct - allyDistinct).map((card) => ({ card, ally: false, count: 1 })),
    ...pick(deckableCards(cat, ally), allyDistinct).map((card) => ({ card, ally: true, count: 1 })),
  ];
  let left = DECK_SIZE - chosen.length;
  let allyCopies = allyDistinct;
  for (let tries = 0; left > 0 && tries < 10_000; tries++) {
    const c = chosen[Math.floor(next() * chosen.length)] as (typeof chosen)[number];
    if (c.count >= COPY_LIMIT[c.card.rarity] || (c.ally && allyCopies >= ALLY_LIMIT)) continue;
    c.count++;
    left--;
    if (c.ally) allyCopies++;
  }
  return left === 0 ? chosen.map((c) => ({ card_id: c.card.card_id, count: c.count })) : undefined;
}

/** The library's decks, made one at a time (never held whole): deck `i` of a run of `seed` is the same in every run. */
export function libraryOf(cat: Catalogue, seed = 1) {
  let total = 0;
  const pairs = pairWeights().map((p) => {
    total += p.weight;
    return { ...p, upTo: total };
  });
  const tagRank = zipf(TAGS.length, random(seed * 7919));
  const year = Date.UTC(2025, 10, 28);
  const rules = archetypeRules(cat);
  return (i: number): StoredDeck => {
    const next = random(seed * 1_000_003 + i);
    const x = next() * total;
    const pair = pairs.find((p) => p.upTo > x) ?? (pairs.at(-1) as (typeof pairs)[number]);
    let cards: CardCount[] | undefined;
    while (!cards) cards = cardsOf(cat, pair.main, pair.ally, 10 + Math.floor(next() * 30), next);
    const tags = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => TAGS[tagRank()] as string))];
    const at = new Date(year + Math.floor(next() * 365 * 86_400_000)).toISOString();
    return storedDeck({
      share_slug: `s${String(i).padStart(11, '0')}`,
      author_name: `Author ${i % 9973}`,
      name: deckName(pair.main, pair.ally),
      main_faction: pair.main,
      ally_faction: pair.ally,
      deck_code: encodeDeckCode({ main: pair.main, ally: pair.ally, cards }),
      // What a write keeps: its archetype by the rules in use with the catalogue it is of.
      archetype: archetypeAnswer(rules, { main: pair.main, ally: pair.ally, cards }, 'en'),
      tags,
      guide: {
        system: SYSTEMS[Math.floor(next() * SYSTEMS.length)] as string,
        description: '',
        core_cards: [],
        reserve_recommendations: [],
      },
      created_at: at,
      updated_at: at,
    });
  };
}
