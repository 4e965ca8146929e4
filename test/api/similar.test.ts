/**
 * Decks like this one (contract §12.3) over HTTP, on a runtime of its own (the library holds exactly the decks made
 * here): a deck with near-copies — one card traded, two traded, the same cards' nation changed (another main nation),
 * an exact copy by another author — and decks of other cards. By its share slug and by its code, the first two
 * come first in that order with the scores Σ min(copies) / Σ max(copies) recounted here; never the third, never
 * the deck itself or its exact copy; a private deck's slug is 404; a code's other spelling is 308 to its canonical
 * form; every answer is held to the served OpenAPI document (call()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardCount, encodeDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { call, deckable, demo, newOwner } from '../support/api.ts';
import { legalDeck } from '../support/decks.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';

let runtime: OwnRuntime | undefined;
const slugs: Record<string, string> = {};
const decks: Record<string, CardCount[]> = {};

/** `cards` with one copy of each of `from` traded for one copy of each of `to`. */
function traded(cards: CardCount[], from: string[], to: string[]): CardCount[] {
  const out = cards.map((c) => ({ ...c, count: c.count - (from.includes(c.card_id) ? 1 : 0) })).filter((c) => c.count > 0);
  return [...out, ...to.map((card_id) => ({ card_id, count: 1 }))];
}

/** Σ min(copies) / Σ max(copies) over the cards of both, recounted. */
function score(a: CardCount[], b: CardCount[]): number {
  const ids = new Set([...a, ...b].map((c) => c.card_id));
  const n = (d: CardCount[], id: string) => d.find((c) => c.card_id === id)?.count ?? 0;
  let min = 0;
  let max = 0;
  for (const id of ids) {
    min += Math.min(n(a, id), n(b, id));
    max += Math.max(n(a, id), n(b, id));
  }
  return min / max;
}

beforeAll(async () => {
  runtime = await ownRuntime('similar', { ACCESS_LOG_DELIVERY_MS: '100', STREAM_BATCH_WINDOW_MS: '0' });
  const [author, other] = await Promise.all([newOwner(), newOwner()]);
  const base = legalDeck(demo, 'soviet', 'usa');
  const outside = deckable('soviet')
    .map((c) => c.card_id)
    .filter((id) => !base.some((c) => c.card_id === id));
  const [a, b] = base.map((c) => c.card_id);
  decks.base = base;
  decks.one = traded(base, [a as string], [outside[0] as string]);
  decks.two = traded(base, [a as string, b as string], [outside[0] as string, outside[1] as string]);
  const made: [string, 'soviet' | 'usa', 'soviet' | 'usa' | 'germany', CardCount[], typeof author][] = [
    ['base', 'soviet', 'usa', base, author],
    ['copy', 'soviet', 'usa', base, other],
    ['one', 'soviet', 'usa', decks.one, author],
    ['two', 'soviet', 'usa', decks.two, other],
    // The same nations swapped: the soviet cards an ally may hold, main usa — another main nation.
    ['swapped', 'usa', 'soviet', legalDeck(demo, 'usa', 'soviet'), other],
    ['far', 'soviet', 'germany', legalDeck(demo, 'soviet', 'germany', 12, 9), author],
  ];
  for (const [name, main, ally, cards, owner] of made) {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: encodeDeckCode({ main, ally, cards }), visibility: 'public', guide: { system: name } },
    });
    expect(r.status, r.text).toBe(201);
    slugs[name] = r.body.data.share_slug;
  }
  const hidden = await call('POST', author.decks, {
    key: author.key,
    body: { deck_code: encodeDeckCode({ main: 'soviet', ally: 'usa', cards: base }), visibility: 'private', guide: { system: 'hidden' } },
  });
  expect(hidden.status, hidden.text).toBe(201);
  slugs.private = hidden.body.data.share_slug;
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

describe('decks like this one', () => {
  const expectLikeBase = (data: { share_slug: string; score: number }[]) => {
    const listed = data.map((d) => d.share_slug);
    expect(listed.slice(0, 2)).toEqual([slugs.one, slugs.two]);
    expect(data[0]?.score).toBe(score(decks.base as CardCount[], decks.one as CardCount[]));
    expect(data[1]?.score).toBe(score(decks.base as CardCount[], decks.two as CardCount[]));
    // The formula's own figures: 38 of 40, 37 of 41.
    expect([data[0]?.score, data[1]?.score]).toEqual([38 / 40, 37 / 41]);
    for (const never of [slugs.base, slugs.copy, slugs.swapped, slugs.private]) expect(listed).not.toContain(never);
    expect(listed.length).toBeLessThanOrEqual(10);
    // Most alike first.
    const scores = data.map((d) => d.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  };

  it('by share slug: the near-copies in order with their scores; never the deck, its exact copy or another main nation', async () => {
    const r = await call('GET', `/api/v1/decks/${slugs.base}/similar`);
    expect(r.status, r.text).toBe(200);
    expectLikeBase(r.body.data);
    expect(r.headers.get('cache-control')).toBe('public, max-age=20');
  });

  it('by code: the same list; another spelling of the code is 308 to its canonical form; a private slug is 404', async () => {
    const code = urlCodeOf({ main: 'soviet', ally: 'usa', cards: decks.base as CardCount[] });
    const r = await call('GET', `/api/v1/codes/${code}/similar`);
    expect(r.status, r.text).toBe(200);
    expectLikeBase(r.body.data);
    const spelled = encodeURIComponent(encodeDeckCode({ main: 'soviet', ally: 'usa', cards: decks.base as CardCount[] }));
    const moved = await call('GET', `/api/v1/codes/${spelled}/similar`, { redirect: 'manual' });
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toContain(`/api/v1/codes/${code}/similar`);
    const hidden = await call('GET', `/api/v1/decks/${slugs.private}/similar`);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'deck_not_found']);
  });
});
