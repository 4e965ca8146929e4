/**
 * Deck insight through HTTP (contract §8.6): owner and public reads carry stats and legality judged
 * against the catalogue the service runs with now — a runtime started on another catalogue (one card
 * turned elite) flags the deck it makes illegal — and the two OTK routes answer the chart's exact
 * probabilities (the shared one counting no view).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CATALOGUE_FILE } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { drawProbabilities } from '#rules/insight.ts';
import { storedViews } from '#store/view-counts.ts';
import { call, code, createDeck, demo, newOwner, type Owner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { type Runtime, startRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';

const deckCode = code('soviet', 'usa');
const four = parseDeckCode(deckCode).cards.find((c) => c.count === 4)?.card_id as string;
/** A card of the deck the next season moves into the Reserve pool (contract §11.5). */
const rotated = parseDeckCode(deckCode).cards.find((c) => c.card_id !== four)?.card_id as string;
let next: Runtime;
let dir: string;
let owner: Owner;
let deck: { id: string; share_slug: string; stats: { by_type: Record<string, number> } };

/** A public deck of the owner's with an OTK chart of two items. */
async function otkDeck() {
  const [pool1, pool2] = parseDeckCode(deckCode).cards.slice(0, 2);
  return (
    await createDeck(owner, {
      deck_code: deckCode,
      visibility: 'public',
      archive: {
        chart_settings: {
          otkConfig: {
            items: [
              { card_ids: [pool1?.card_id, pool2?.card_id], required: 2, label: 'combo' },
              { card_ids: [four], required: 1 },
            ],
          },
        },
      },
    })
  ).body.data;
}

beforeAll(async () => {
  owner = await newOwner();
  deck = await otkDeck();
  // The next season's catalogue: one of the deck's 4-copy cards becomes elite, another goes to the Reserve pool.
  dir = mkdtempSync(join(tmpdir(), 'deck-library-season-'));
  const file = join(dir, 'next-season.json');
  writeFileSync(
    file,
    JSON.stringify(
      demo.cards.map((c) => (c.card_id === four ? { ...c, rarity: 'elite' } : c.card_id === rotated ? { ...c, reserved: true } : c)),
    ),
  );
  next = await startRuntime(dir, { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), CATALOGUE_FILE: file, STREAM_WORKERS: 'off' });
}, 120_000);
afterAll(async () => {
  await next?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('stats and legality', () => {
  it('owner and public reads: stats of the 39 cards; legal under the catalogue it was made with', async () => {
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const mine = (await call('GET', `${owner.decks}/${deck.id}`, { key: owner.key })).body.data;
    const theirs = (await call('GET', `/api/v1/decks/${deck.share_slug}`)).body.data;
    for (const read of [mine, theirs]) {
      expect(read.legality).toMatchObject({ valid: true, errors: [], ranked: { legal: true, reserved_cards: [] } });
      expect([sum(read.stats.by_type), sum(read.stats.by_rarity), sum(read.stats.by_kredits), read.stats.ally_cards]).toEqual([
        39, 39, 39, 12,
      ]);
    }
  });

  it('under a catalogue where one of its cards turned elite and one went to the Reserve pool, the same deck reads as illegal (copy_limit at that card) and not ranked-legal, naming the other', async () => {
    for (const [path, key] of [
      [`${owner.decks}/${deck.id}`, owner.key],
      [`/api/v1/decks/${deck.share_slug}`, undefined],
    ] as const) {
      const r = await fetch(`${next.baseUrl}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      const { legality } = (
        (await r.json()) as {
          data: {
            legality: { valid: boolean; errors: { code: string; message: string }[]; ranked: { legal: boolean; reserved_cards: string[] } };
          };
        }
      ).data;
      expect(legality.valid).toBe(false);
      expect(legality.ranked).toEqual({ legal: false, reserved_cards: [rotated] });
      expect(legality.errors.map((e) => [e.code, e.message.split(' ')[0]])).toEqual([['copy_limit', four]]);
    }
  });
});

describe('OTK routes', () => {
  it('owner and shared: the exact chance per draw count for each item; the shared route counts no view', async () => {
    // Views are counted from the access log: a deck of its own (no view of it in flight from the tests before: under
    // load one could land after any wait), then one shared read and the OTK read.
    const deck = await otkDeck();
    const before = 0;
    expect((await call('GET', `/api/v1/decks/${deck.share_slug}`)).status).toBe(200);
    const shared = await call('GET', `/api/v1/decks/${deck.share_slug}/otk`);
    const mine = await call('GET', `${owner.decks}/${deck.id}/otk`, { key: owner.key });
    expect(shared.status).toBe(200);
    expect(mine.body).toEqual(shared.body);
    const [combo, single] = shared.body.data.items;
    const copies = parseDeckCode(deckCode).cards;
    const pool = (copies[0]?.count ?? 0) + (copies[1]?.count ?? 0);
    expect(combo).toMatchObject({ required: 2, label: 'combo', pool_copies: pool });
    expect(combo.by_draws).toEqual(drawProbabilities(pool, 2));
    expect(single).toMatchObject({ card_ids: [four], required: 1, label: null, pool_copies: 4 });
    expect(single.by_draws[0]).toBeCloseTo(4 / 39, 12);
    expect(
      await settled(
        () => storedViews(deck.share_slug),
        (v) => v > before,
        15_000,
      ),
    ).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await storedViews(deck.share_slug)).toBe(before + 1);
  });

  it('no items configured: items []; a private deck is 404 on the shared route', async () => {
    const plain = (await createDeck(owner)).body.data;
    expect((await call('GET', `${owner.decks}/${plain.id}/otk`, { key: owner.key })).body.data).toEqual({ items: [] });
    const r = await call('GET', `/api/v1/decks/${plain.share_slug}/otk`);
    expect([r.status, r.body.error.code]).toEqual([404, 'deck_not_found']);
  });
});

describe('deckctl catalogue diff', () => {
  it('names the changed card, and the stored deck the new catalogue makes illegal, by rule', async () => {
    const r = await deckctl(['catalogue', 'diff', fileURLToPath(DEMO_CATALOGUE_FILE), join(dir, 'next-season.json'), '--decks', '--json'], {
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    });
    expect(r.status, r.stderr).toBe(0);
    const diff = JSON.parse(r.stdout);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([
      { card_id: four, name: demo.get(four)?.name, changes: [{ field: 'rarity', from: demo.get(four)?.rarity, to: 'elite' }] },
    ]);
    expect(diff.decks.illegal).toContainEqual({ id: deck.id, user_id: owner.userId, rules: ['copy_limit'] });
    expect(diff.decks.by_rule.copy_limit).toBe(diff.decks.made_illegal);
    expect(diff.decks.checked).toBeGreaterThanOrEqual(diff.decks.made_illegal);
  });
});
