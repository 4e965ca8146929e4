/**
 * What the library plays (contract §10.3) on a runtime of its own (so the library holds exactly the decks
 * made here), through HTTP: after a burst of public creates, PATCHes to private and to other codes and
 * factions' tags, unlisted decks and deletes, made side by side, the figures at rest equal a recount of the
 * public decks as they end — every card of three nations and a pair, by cursor, and the pairs and tags;
 * unlisted and private decks never count; an account's erasure takes its decks out. `deckctl meta recount`
 * finds no drift at rest, and corrects a figure changed behind the worker's back.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import type { FactionId } from '#rules/factions.ts';
import { type Contribution, contributionOf, emptyPool, mainPool, pairPool, recount } from '#rules/plays.ts';
import { cardFigures, factionFigures } from '#rules/plays-shown.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { escapeMarkup } from '#share/markup.ts';
import { atMost } from '#store/at-most.ts';
import { documentClient } from '#store/client.ts';
import { cardsKey, factionsKey, inFactionsOf, LEGACY_TAG_SHARDS } from '#store/items/plays.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, code, demo, newOwner, type Owner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { settled, WORKER_CAP_MS } from '../support/settle.ts';

const PAIRS: [FactionId, FactionId][] = [
  ['soviet', 'usa'],
  ['soviet', 'britain'],
  ['germany', 'italy'],
  ['japan', 'usa'],
];
const TAGS = [['aggro'], ['control', 'meta'], ['aggro', 'meta'], []];

/** Requests in flight at once. */
const IN_FLIGHT = 20;
let runtime: OwnRuntime | undefined;
/** Each deck made, as it ends: its owner, id and what the figures should count of it. */
const made = new Map<
  string,
  {
    owner: Owner;
    deck:
      | {
          visibility: string;
          main_faction: string;
          ally_faction: string;
          tags: string[];
          deck_code: string;
          archetype: { id: string } | null;
        }
      | undefined;
  }
>();

beforeAll(async () => {
  runtime = await ownRuntime('meta', { STREAM_BATCH_WINDOW_MS: '0' });
  const owners = await Promise.all([1, 2, 3, 4].map(() => newOwner()));
  const create = async (i: number, visibility: string) => {
    const owner = owners[i % owners.length] as Owner;
    const [main, ally] = PAIRS[i % PAIRS.length] as [FactionId, FactionId];
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code(main, ally, i), guide: { system: 'Meta' }, tags: TAGS[i % TAGS.length], visibility },
    });
    expect(r.status, r.text).toBe(201);
    made.set(r.body.data.id, { owner, deck: r.body.data });
    return r.body.data.id as string;
  };
  // A burst: 200 public creates, 20 in flight at a time (100 at once, beside the worker's transactions on
  // DynamoDB Local, waited here past a request's budget: 503), and unlisted and private decks.
  const ids: string[] = [];
  await atMost(
    IN_FLIGHT,
    Array.from({ length: 200 }, (_, i) => i),
    async (i) => {
      ids[i] = await create(i, 'public');
    },
  );
  await Promise.all(Array.from({ length: 8 }, (_, i) => create(100 + i, i % 2 ? 'unlisted' : 'private')));
  // Then, side by side: 100 made private, 8 given other cards, 6 other tags, 5 deleted, 3 unlisted made public.
  const patch = async (id: string, body: Record<string, unknown>) => {
    const at = made.get(id) as { owner: Owner };
    const r = await call('PATCH', `${at.owner.decks}/${id}`, { key: at.owner.key, body });
    expect(r.status, r.text).toBe(200);
    made.set(id, { owner: at.owner, deck: r.body.data });
  };
  const unlisted = [...made].filter(([, m]) => m.deck?.visibility === 'unlisted').map(([id]) => id);
  // The changes interleaved, so that PATCHes to private race the others (as many in flight).
  const changes: (() => Promise<void>)[] = [
    ...ids.slice(0, 100).map((id) => () => patch(id, { visibility: 'private' })),
    ...ids.slice(100, 108).map((id, i) => () => {
      const deck = made.get(id)?.deck as { main_faction: FactionId; ally_faction: FactionId };
      return patch(id, { deck_code: code(deck.main_faction, deck.ally_faction, 50 + i) });
    }),
    ...ids.slice(108, 114).map((id) => () => patch(id, { tags: ['swapped'] })),
    ...ids.slice(114, 119).map((id) => async () => {
      const at = made.get(id) as { owner: Owner };
      const r = await call('DELETE', `${at.owner.decks}/${id}`, { key: at.owner.key, body: {} });
      expect(r.status, r.text).toBe(200);
      made.set(id, { owner: at.owner, deck: undefined });
    }),
    ...unlisted.slice(0, 3).map((id) => () => patch(id, { visibility: 'public' })),
  ];
  const order = changes.map((_, i) => i).sort((a, b) => ((a * 37) % changes.length) - ((b * 37) % changes.length));
  await atMost(IN_FLIGHT, order, (i) => (changes[i] as () => Promise<void>)());
}, 120_000);
afterAll(() => runtime?.close());

/** The figures a recount of the decks as they end makes. */
const expected = () => recount([...made.values()].map((m): Contribution | null => contributionOf(m.deck)));

/** Every card of a pool, by cursor, and the meta of its first page. */
async function walk(query: string, limit = 7) {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  let first: Record<string, unknown> | undefined;
  do {
    const r = await call('GET', `/api/v1/meta/cards?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, r.text).toBe(200);
    rows.push(...r.body.data);
    first ??= r.body.meta;
    cursor = r.body.meta.next_cursor;
  } while (cursor);
  return { rows, meta: first as Record<string, unknown> };
}

/** Decks' figures tallied here, apart from the pools the service keeps: each card's decks and copies. */
function tally(decks: readonly Contribution[]) {
  const cards = new Map<string, { decks: number; copies: number }>();
  for (const d of decks)
    for (const [id, copies] of Object.entries(d.cards)) {
      const c = cards.get(id) ?? { decks: 0, copies: 0 };
      cards.set(id, { decks: c.decks + 1, copies: c.copies + copies });
    }
  return { decks: decks.length, cards };
}

describe('what the library plays', () => {
  it(
    'at rest: every card of three nations and a pair, of an ally alone and of the whole library, the pairs and the tags equal a recount of the public decks',
    async () => {
      const want = expected();
      expect(want.decks).toBe(200 - 100 - 5 + 3);
      const pools = [mainPool('soviet'), mainPool('germany'), mainPool('japan'), pairPool('soviet', 'usa')];
      const wanted = (pool: string) => cardFigures(want.pools.get(pool) ?? emptyPool(), demo, 'en');
      const query = (pool: string) => {
        const [main, ally] = pool.split(':');
        return `main_faction=${main}${ally ? `&ally_faction=${ally}` : ''}`;
      };
      // The worker's folds land after the writes: read until the figures are the recount's (its bound), then assert.
      for (const pool of pools) {
        const got = await settled(
          () => walk(query(pool)),
          (g) => JSON.stringify(g.rows) === JSON.stringify(wanted(pool)),
        );
        expect(got.rows, pool).toEqual(wanted(pool));
        expect(got.meta.decks, pool).toBe(want.pools.get(pool)?.decks ?? 0);
        expect(typeof got.meta.as_of).toBe('string');
      }
      // An ally alone (one that is also a main faction, and one that is not), and the whole library (contract
      // §11.5): tallied here from the decks themselves, apart from the pools the service sums.
      const publicDecks = [...made.values()].map((m) => contributionOf(m.deck)).filter((c): c is Contribution => c !== null);
      for (const [query, decks] of [
        ['ally_faction=usa', publicDecks.filter((d) => d.ally === 'usa')],
        ['ally_faction=italy', publicDecks.filter((d) => d.ally === 'italy')],
        ['lang=en', publicDecks],
      ] as const) {
        const want = tally(decks);
        expect(want.decks, query).toBeGreaterThan(0);
        const got = await walk(query, 50);
        expect(got.rows, query).toEqual(cardFigures(want, demo, 'en'));
        expect(got.meta.decks, query).toBe(want.decks);
      }
      const factions = await call('GET', '/api/v1/meta/factions');
      expect(factions.body.data).toEqual(factionFigures(want.decks, want.counts.pairs, want.counts.tags));
      expect(factions.body.meta.decks).toBe(want.decks);
      expect(factions.body.data.tags).toContainEqual({ tag: 'swapped', decks: 6 });
      // The public decks by archetype (contract §13.3): a counted figure, kept in the factions' item as the pairs are.
      const archetypes = inFactionsOf(
        (await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: factionsKey(), ConsistentRead: true }))).Item,
      ).archetypes;
      expect(want.counts.archetypes.size).toBeGreaterThan(0);
      expect(Object.fromEntries(archetypes)).toEqual(Object.fromEntries(want.counts.archetypes));
      expect(want.counts.archetypes.get('soviet-grey-rifles-thistle')).toBe(
        publicDecks.filter((d) => d.archetype === 'soviet-grey-rifles-thistle').length,
      );
      // Past the worker's bound, a read is taken once the workers are at rest (test/support/settle.ts): on a slow machine
      // that can be minutes after the burst, within WORKER_CAP_MS.
    },
    2 * WORKER_CAP_MS,
  );

  it('the share page of a public deck: each card "in N%" of its main nation\'s public decks, as a recount says', async () => {
    const want = expected();
    const soviet = want.pools.get(mainPool('soviet')) as { decks: number; cards: Map<string, { decks: number }> };
    const deck = [...made.values()].find((m) => m.deck?.visibility === 'public' && m.deck.main_faction === 'soviet')?.deck as unknown as {
      share_slug: string;
      deck_code: string;
    };
    const page = await call('GET', `/d/${deck.share_slug}`);
    expect(page.status).toBe(200);
    const shown = new Map(
      [
        ...page.text.matchAll(
          /<span>([^<]*)<\/span>(?:<span class="rsv"[^>]*>[^<]*<\/span>)?<span class="played" title="in (\d+)% of Soviet Union decks">\2%<\/span>/g,
        ),
      ].map((m) => [m[1], Number(m[2])]),
    );
    const cards = parseDeckCode(deck.deck_code).cards;
    expect(shown.size).toBe(cards.length);
    for (const { card_id } of cards)
      expect([card_id, shown.get(escapeMarkup(demo.get(card_id)?.name ?? ''))]).toEqual([
        card_id,
        Math.round((100 * (soviet.cards.get(card_id)?.decks ?? 0)) / soviet.decks),
      ]);
    expect(page.text).toContain(escapeMarkup(`how many of the library's ${soviet.decks} public Soviet Union decks play the card`));
    // The image, and a code's page, are as they were: no figures.
    const code = await call('GET', `/c/${urlCodeOf(parseDeckCode(deck.deck_code))}`);
    expect(code.status).toBe(200);
    expect(code.text).not.toContain('class="played"');
  });

  it('type keeps one card type; names in the language asked; a bad query is 400', async () => {
    const tanks = await call('GET', '/api/v1/meta/cards?main_faction=soviet&type=tank&lang=de&limit=200');
    expect(tanks.body.data.length).toBeGreaterThan(0);
    for (const row of tanks.body.data) expect([demo.get(row.card_id)?.type, row.name]).toEqual(['tank', demo.get(row.card_id)?.names?.de]);
    expect(tanks.headers.get('content-language')).toBe('de');
    for (const [qs, message] of [
      ['main_faction=france', 'main_faction must be one of germany, britain, japan, soviet, usa'],
      ['main_faction=soviet&ally_faction=soviet', 'ally_faction must differ from main_faction'],
      // Given twice: API Gateway (and the local gateway) joins the values with a comma.
      ['main_faction=soviet&main_faction=soviet', 'main_faction is given once: one of germany, britain, japan, soviet, usa'],
      ['main_faction=soviet&distinct=code&distinct=code', 'distinct is given once: one of code'],
    ]) {
      const r = await call('GET', `/api/v1/meta/cards?${qs}`);
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([400, 'invalid_parameter', message]);
    }
  });

  it("an account's erasure takes its public decks out of the figures", async () => {
    const leaving = await newOwner();
    for (let i = 0; i < 3; i++) {
      const r = await call('POST', leaving.decks, {
        key: leaving.key,
        body: { deck_code: code('japan', 'usa', 60 + i), guide: { system: 'Gone' }, tags: ['erased'], visibility: 'public' },
      });
      made.set(r.body.data.id, { owner: leaving, deck: r.body.data });
    }
    const tagged = async () =>
      ((await call('GET', '/api/v1/meta/factions')).body.data.tags as { tag: string; decks: number }[]).find((t) => t.tag === 'erased')
        ?.decks ?? 0;
    expect(await settled(tagged, (n) => n === 3)).toBe(3);
    const erased = await call('DELETE', `/api/v1/users/${leaving.userId}`, { key: leaving.key, body: { confirm: leaving.userId } });
    expect(erased.status, erased.text).toBe(200);
    for (const [id, m] of made) if (m.owner === leaving) made.set(id, { owner: leaving, deck: undefined });
    // The erasure's steps, then the figures: within the erasure's settling waits and the worker's bound.
    expect(await settled(tagged, (n) => n === 0, 60_000)).toBe(0);
    const want = expected();
    const japan = await settled(
      () => walk('main_faction=japan'),
      (g) => JSON.stringify(g.rows) === JSON.stringify(cardFigures(want.pools.get('japan') ?? emptyPool(), demo, 'en')),
      60_000,
    );
    expect(japan.rows).toEqual(cardFigures(want.pools.get('japan') ?? emptyPool(), demo, 'en'));
    expect((await call('GET', '/api/v1/meta/factions')).body.meta.decks).toBe(want.decks);
  }, 120_000);

  it('distinct=code (contract §11.5): eleven public decks of one code count once, a code that leaves the library leaves the figures; every read equals a tally of the distinct codes', async () => {
    const netdecker = await newOwner();
    const create = async (deck_code: string) => {
      const r = await call('POST', netdecker.decks, {
        key: netdecker.key,
        body: { deck_code, guide: { system: 'Netdeck' }, tags: ['netdeck'], visibility: 'public' },
      });
      expect(r.status, r.text).toBe(201);
      made.set(r.body.data.id, { owner: netdecker, deck: r.body.data });
      return r.body.data.id as string;
    };
    const netdeck = code('germany', 'italy', 90);
    const holding = () => [...made.values()].filter((m) => m.deck?.visibility === 'public' && m.deck.deck_code === netdeck).length;
    const held = holding();
    const copies: string[] = [];
    await atMost(
      4,
      Array.from({ length: 11 }, () => netdeck),
      async (c) => void copies.push(await create(c)),
    );
    // One copy made private (11 → 10: the distinct figures do not move), and a code of its own made and taken out (1 → 0).
    const alone = await create(code('germany', 'italy', 91));
    for (const id of [copies[0] as string, alone]) {
      const r = await call('PATCH', `${netdecker.decks}/${id}`, { key: netdecker.key, body: { visibility: 'private' } });
      expect(r.status, r.text).toBe(200);
      made.set(id, { owner: netdecker, deck: r.body.data });
    }
    // Tallied here from the public decks as they end: one deck a code (decks of one code differ only in tags).
    const byCode = new Map<string, Contribution>();
    for (const m of made.values()) {
      const c = contributionOf(m.deck);
      if (c)
        byCode.set(
          urlCodeOf({ main: c.main, ally: c.ally, cards: Object.entries(c.cards).map(([card_id, count]) => ({ card_id, count })) }),
          c,
        );
    }
    const distinct = [...byCode.values()];
    expect(holding()).toBe(held + 10);
    for (const [query, decks] of [
      ['main_faction=germany&distinct=code', distinct.filter((d) => d.main === 'germany')],
      ['main_faction=germany&ally_faction=italy&distinct=code', distinct.filter((d) => d.main === 'germany' && d.ally === 'italy')],
      ['ally_faction=italy&distinct=code', distinct.filter((d) => d.ally === 'italy')],
      ['distinct=code', distinct],
    ] as const) {
      const want = tally(decks);
      const got = await settled(
        () => walk(query, 50),
        (g) => JSON.stringify(g.rows) === JSON.stringify(cardFigures(want, demo, 'en')),
        60_000,
      );
      expect(got.rows, query).toEqual(cardFigures(want, demo, 'en'));
      expect(got.meta.decks, query).toBe(want.decks);
    }
    // Every public deck still counts without it: the netdeck's ten copies are ten decks of Germany there.
    const all = expected().pools.get('germany');
    const germany = await settled(
      () => walk('main_faction=germany', 50),
      (g) => g.meta.decks === all?.decks,
    );
    expect(germany.meta.decks).toBe(all?.decks);
    expect(germany.meta.decks).toBeGreaterThan(((await walk('main_faction=germany&distinct=code', 50)).meta.decks as number) + 8);
    const bad = await call('GET', '/api/v1/meta/cards?distinct=deck');
    expect([bad.status, bad.body.error.message]).toEqual([400, 'distinct must be one of code']);
  }, 120_000);

  it('deckctl meta recount: no drift at rest; a figure changed behind the worker is found and corrected', async () => {
    const env = { DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint };
    const quiet = await deckctl(['meta', 'recount', '--json'], env);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout)).toEqual({ decks: expected().decks, drift: [] });
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(DECKS),
        Key: cardsKey('soviet'),
        UpdateExpression: 'ADD decks :n',
        ExpressionAttributeValues: { ':n': 5 },
      }),
    );
    const fixed = await deckctl(['meta', 'recount'], env);
    expect(fixed.stdout).toMatch(/counted: 1 figures corrected\n {2}cards soviet: decks: \d+ → \d+\n$/);
    const again = await deckctl(['meta', 'recount', '--json'], env);
    expect(JSON.parse(again.stdout).drift).toEqual([]);
    // A store of an earlier version: its tags in shard items (one attribute a tag ever used). The recount makes
    // each tag's item from the decks and deletes the shards.
    await documentClient().send(
      new PutCommand({ TableName: tableName(DECKS), Item: { pk: LEGACY_TAG_SHARDS, sk: '00', 't:aggro': 3, 't:gone': 0 } }),
    );
    const migrated = await deckctl(['meta', 'recount'], env);
    expect(migrated.stdout).toContain('the 1 tag shards of an earlier version (META#tags): removed');
    const shard = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: { pk: LEGACY_TAG_SHARDS, sk: '00' } }));
    expect(shard.Item).toBeUndefined();
    expect(JSON.parse((await deckctl(['meta', 'recount', '--json'], env)).stdout).drift).toEqual([]);
    expect((await call('GET', '/api/v1/meta/cards?main_faction=soviet')).body.meta.decks).toBe(expected().pools.get('soviet')?.decks);
  });
});
