/**
 * Cluster archetypes over HTTP (contract §13.3), on a library of its own: the public decks no rule takes, near-copies
 * of one another, are given their cluster's archetype by the daily job (`deckctl archetypes cluster`) — on the owner
 * and public reads and search items, found by `archetype=` — a group too small is given none, a deck a rule takes keeps
 * the rule's; the same library twice gives the same ids, and a deck added to another nation moves none.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { CLUSTER_ARCHETYPES } from '#routes/workers.ts';
import { weekOf } from '#rules/archetype-trend.ts';
import { type CardCount, encodeDeckCode } from '#rules/deck-code.ts';
import type { FactionId } from '#rules/factions.ts';
import { documentClient } from '#store/client.ts';
import { clustersKey } from '#store/items/clusters.ts';
import { DECKS, tableName } from '#store/tables.ts';
import type { ClusterRun } from '#workers/clusters.ts';
import { installGrantsGuard } from '../../infra/local/grants-guard.ts';
import { invokeWorker } from '../../infra/local/workers.ts';
import { call, newOwner, type Owner, walkSearch } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { deckableCards, legalDeck } from '../support/decks.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';

const demo = demoCatalogue();
let runtime: OwnRuntime;
let owner: Owner;
beforeAll(async () => {
  runtime = await ownRuntime('clusters', { STREAM_BATCH_WINDOW_MS: '0' });
  owner = await newOwner();
});
afterAll(async () => runtime?.close());

/**
 * A legal demo deck and `n` near-copies of it: copy i has all copies of one of its ally's standard cards traded for as
 * many of an ally standard card it lacks (legal too: the ally's count and each card's copies are kept).
 */
function family(main: FactionId, ally: FactionId, base: number, n: number): string[] {
  const cards = legalDeck(demo, main, ally, 12, base);
  const standard = (id: string) => demo.get(id)?.rarity === 'standard';
  const allied = cards.filter((c) => demo.get(c.card_id)?.faction === ally && standard(c.card_id));
  const outside = deckableCards(demo, ally).filter((c) => c.rarity === 'standard' && !cards.some((d) => d.card_id === c.card_id));
  return Array.from({ length: n }, (_, i) => {
    const traded = allied[i % allied.length] as CardCount;
    const into = outside[i % outside.length]?.card_id as string;
    return encodeDeckCode({ main, ally, cards: cards.map((c) => (c.card_id === traded.card_id ? { card_id: into, count: c.count } : c)) });
  });
}

const publish = async (deckCode: string) => {
  const r = await call('POST', owner.decks, {
    key: owner.key,
    body: { deck_code: deckCode, guide: { system: 'Tempo' }, visibility: 'public' },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.data as { id: string; share_slug: string; archetype: unknown };
};
const cluster = async () => {
  const r = await deckctl(['archetypes', 'cluster', '--json'], { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ClusterRun;
};
const archetypeOf = async (d: { id: string }) => (await call('GET', `${owner.decks}/${d.id}`, { key: owner.key })).body.data.archetype;

describe('cluster archetypes', () => {
  it('near-copies no rule takes are given their cluster on every surface; too few are given none; the same library twice, the same ids', async () => {
    const germans = [];
    for (const c of family('germany', 'italy', 11, 6)) germans.push(await publish(c));
    const japanese = [];
    for (const c of family('japan', 'usa', 5, 3)) japanese.push(await publish(c));
    for (const d of [...germans, ...japanese]) expect(d.archetype).toBeNull();

    const first = await cluster();
    expect(first).toMatchObject({ decks: 9, clusters: 1, clustered: 6, reclassified: 6 });
    const given = await archetypeOf(germans[0] as { id: string });
    expect(given).toMatchObject({ by: 'cluster' });
    expect(given.id).toMatch(/^cluster-germany-[0-9a-f]{12}$/);
    expect(given.name).toMatch(/^Germany · /);
    expect(given.name.length).toBeLessThanOrEqual(60);
    for (const d of germans) expect(await archetypeOf(d)).toEqual(given);
    for (const d of japanese) expect(await archetypeOf(d)).toBeNull();
    // Public reads, search items and search by it.
    expect((await call('GET', `/api/v1/decks/${germans[1]?.share_slug}`)).body.data.archetype).toEqual(given);
    const found = await walkSearch(`archetype=${given.id}`, 4);
    expect(new Set(found.slugs)).toEqual(new Set(germans.map((d) => d.share_slug)));
    const items = (await call('GET', `/api/v1/decks?archetype=${given.id}&limit=10`)).body.data;
    for (const item of items) expect(item.archetype).toEqual(given);

    // The library's figures count the decks by archetype (a counted figure): the store-change worker's equal a recount.
    const recount = () => deckctl(['meta', 'recount', '--json'], { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint });
    const quiet = await settled(recount, (r) => r.status === 0 && JSON.parse(r.stdout).drift.length === 0);
    expect(JSON.parse(quiet.stdout).drift).toEqual([]);

    // What the library plays by archetype: the cluster's decks, share and signature; the rules' by name.
    const listed = await call('GET', '/api/v1/archetypes?main_faction=germany');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: given.id,
        name: given.name,
        by: 'cluster',
        main_faction: 'germany',
        decks: 6,
        share: Math.round((6 / 9) * 10_000) / 10_000,
        key_cards: { core: expect.arrayContaining([]), tech: expect.any(Array) },
        trend: expect.any(Array),
        samples: expect.any(Array),
      },
    ]);
    expect(listed.body.meta).toMatchObject({ decks: 9, period: '2026-05' });
    const core = listed.body.data[0].key_cards.core as string[];
    // The core: the cards of the family's base deck (each copy trades one ally card, so every card is in ≥ 5 of 6).
    expect(core.length).toBeGreaterThan(2);

    // Again, nothing changed: the same ids, nothing written.
    const second = await cluster();
    expect(second).toMatchObject({ decks: 9, clusters: 1, clustered: 6, reclassified: 0, unchanged: 9 });
    for (const d of germans) expect((await archetypeOf(d)).id).toBe(given.id);

    // A write that keeps the code keeps the cluster; a deck added to another nation moves no German deck's.
    const renamed = await call('PATCH', `${owner.decks}/${germans[2]?.id}`, { key: owner.key, body: { tags: ['renamed'] } });
    expect(renamed.body.data.archetype).toEqual(given);
    await publish(family('japan', 'usa', 5, 4)[3] as string);
    // This run as Lambda runs the daily function: its handler, under its grants alone (the local grants guard).
    installGrantsGuard();
    const third = await invokeWorker<{ decks: number; clusters: number }>(CLUSTER_ARCHETYPES, {});
    expect(third.decks).toBe(10);
    for (const d of germans) expect((await archetypeOf(d)).id).toBe(given.id);

    // A deck made private leaves search by its cluster; the rest stay.
    await call('PATCH', `${owner.decks}/${germans[0]?.id}`, { key: owner.key, body: { visibility: 'private' } });
    const left = await walkSearch(`archetype=${given.id}`, 10);
    expect(new Set(left.slugs)).toEqual(new Set(germans.slice(1).map((d) => d.share_slug)));
  });

  it('a deck a rule takes keeps the rule’s archetype: the job never clusters it', async () => {
    // The demo rule for the Soviet Union takes a deck with two of 2B and two of 2C.
    // Six near-copies (a group big enough to be a cluster), each taken by it (only their ally's cards differ).
    const made = [];
    for (const c of family('soviet', 'usa', 0, 6)) made.push(await publish(c));
    for (const d of made) expect(d.archetype).toMatchObject({ id: 'soviet-grey-rifles-thistle', by: 'rule' });
    const run = await cluster();
    // The first test's ten, one made private since: the Soviet decks are read, and not among those clustered.
    expect(run.decks).toBe(9);
    expect(run.read).toBe(15);
    for (const d of made) expect(await archetypeOf(d)).toMatchObject({ id: 'soviet-grey-rifles-thistle', by: 'rule' });
    // The figures by archetype name the rule in the language asked, its key cards the cards it holds.
    const figures = async (query: string) =>
      (
        await settled(
          () => call('GET', `/api/v1/archetypes${query}`),
          (r) => r.body.data?.some((a: { id: string; decks: number }) => a.id === 'soviet-grey-rifles-thistle' && a.decks === 6),
        )
      ).body;
    const de = await figures('?lang=de&main_faction=soviet');
    expect(de.data).toEqual([
      {
        id: 'soviet-grey-rifles-thistle',
        name: 'Sowjetunion · Volga Grey Rifles und Volga Thistle Mk I',
        by: 'rule',
        main_faction: 'soviet',
        decks: 6,
        share: Math.round((6 / 15) * 10_000) / 10_000,
        key_cards: { core: ['2B', '2C'], tech: [] },
        trend: expect.any(Array),
        samples: expect.any(Array),
      },
    ]);
    // What a hostile client sends: 400 in the envelope, never a 5xx.
    for (const query of [
      '?main_faction=__proto__',
      '?main_faction=italy',
      '?main_faction=',
      '?lang=__proto__',
      `?main_faction=${'x'.repeat(5000)}`,
    ]) {
      const r = await call('GET', `/api/v1/archetypes${query}`);
      expect([query.slice(0, 40), r.status, r.body.error?.code]).toEqual([query.slice(0, 40), 400, 'invalid_parameter']);
    }
    const all = await figures('');
    expect(all.data.map((a: { main_faction: string; decks: number }) => [a.main_faction, a.decks])).toEqual([
      ['soviet', 6],
      ['germany', 5],
    ]);
    expect(all.meta.decks).toBe(15);
  });
  it('one archetype and pages of them: its trend, its three most viewed public decks read as asked, the period in use; hostile ids 404', async () => {
    type Figure = {
      id: string;
      decks: number;
      share: number;
      trend: { week: string; share: number }[];
      samples: { id: string; archetype: { id: string } }[];
    };
    // This week's Monday as the answers work it out (a run across Monday 00:00 UTC sees two weeks, the new one last).
    const weekAround = async <T>(read: () => Promise<T>) => {
      const before = weekOf(new Date());
      const answer = await read();
      return { answer, weeks: new Set([before, weekOf(new Date())]) };
    };
    const { answer: list, weeks } = await weekAround(() => call('GET', '/api/v1/archetypes?lang=de'));
    expect(list.status, list.text).toBe(200);
    const figures = list.body.data as Figure[];
    expect(figures.map((f) => [f.id.replace(/-[0-9a-f]{12}$/, ''), f.decks])).toEqual([
      ['soviet-grey-rifles-thistle', 6],
      ['cluster-germany', 5],
    ]);
    expect(list.body.meta).toMatchObject({ decks: 15, period: '2026-05', has_more: false, next_cursor: null });
    for (const f of figures) {
      // The trend: the week in progress (the cluster job kept it this week), its share now.
      expect(f.trend.at(-1)?.share).toBe(f.share);
      expect(weeks.has(f.trend.at(-1)?.week as string)).toBe(true);
      expect(f.trend.length).toBeLessThanOrEqual(weeks.size);
      // The samples: what search by its archetype lists first by views (the same index, read the same way).
      const top = await call('GET', `/api/v1/decks?archetype=${f.id}&sort=views&limit=3`);
      expect(f.samples.map((d) => d.id)).toEqual(top.body.data.map((d: { id: string }) => d.id));
      expect(f.samples).toHaveLength(3);
      for (const d of f.samples) expect(d.archetype.id).toBe(f.id);
      // One archetype: the same figure, the meta without pages.
      const one = await call('GET', `/api/v1/archetypes/${f.id}?lang=de`);
      expect(one.status, one.text).toBe(200);
      expect(one.body.data).toEqual(f);
      expect(one.body.meta).toEqual({ api_version: list.body.meta.api_version, decks: 15, as_of: list.body.meta.as_of, period: '2026-05' });
    }
    // A page at a time: the pages are the list.
    const first = await call('GET', '/api/v1/archetypes?lang=de&limit=1');
    expect(first.body.data).toEqual(figures.slice(0, 1));
    expect(first.body.meta.has_more).toBe(true);
    const next = await call('GET', `/api/v1/archetypes?lang=de&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(next.body.data).toEqual(figures.slice(1, 2));
    expect(next.body.meta).toMatchObject({ has_more: false, next_cursor: null });
    // A cursor is good for the query it was issued for alone.
    const elsewhere = await call(
      'GET',
      `/api/v1/archetypes?main_faction=soviet&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    expect([elsewhere.status, elsewhere.body.error?.code]).toEqual([400, 'invalid_parameter']);

    // A sample made private is in no sample from then on: read as asked, never kept.
    const soviet = figures[0] as Figure;
    const hidden = soviet.samples[0] as { id: string };
    const made = await call('PATCH', `${owner.decks}/${hidden.id}`, { key: owner.key, body: { visibility: 'private' } });
    expect(made.status, made.text).toBe(200);
    const after = await call('GET', `/api/v1/archetypes/${soviet.id}`);
    expect(after.body.data.samples.map((d: { id: string }) => d.id)).not.toContain(hidden.id);
    expect(after.body.data.samples).toHaveLength(3);
    const listedAfter = await call('GET', '/api/v1/archetypes?main_faction=soviet');
    expect(listedAfter.body.data[0].samples.map((d: { id: string }) => d.id)).not.toContain(hidden.id);

    // A walk goes on after the last archetype it showed, read as the figures are then: the Soviet rule, shown first at 6
    // decks, now has 5, level with the German cluster, whose id sorts first. The next page is the German cluster (the
    // list's second place would have been the Soviet rule again).
    const germanId = (figures[1] as Figure).id;
    await settled(
      () => call('GET', '/api/v1/archetypes?lang=de'),
      (r) => r.body.data?.[0]?.id === germanId && r.body.data?.[1]?.decks === 5,
    );
    const walked = await call('GET', `/api/v1/archetypes?lang=de&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(walked.body.data.map((f: Figure) => [f.id, f.decks])).toEqual([[germanId, 5]]);
    expect(walked.body.meta.has_more).toBe(true);

    // The period in use is the one there is; another is 404, a malformed one 400.
    expect((await call('GET', '/api/v1/archetypes?period=2026-05')).status).toBe(200);
    expect((await call('GET', `/api/v1/archetypes/${soviet.id}?period=2026-05`)).status).toBe(200);
    for (const path of ['/api/v1/archetypes?period=2025-11', `/api/v1/archetypes/${soviet.id}?period=2025-11`]) {
      const r = await call('GET', path);
      expect([path, r.status, r.body.error?.code]).toEqual([path, 404, 'not_found']);
      expect(r.body.error.message).toContain('2026-05');
    }
    for (const query of ['?period=2026-13', '?period=2026-5', '?period=__proto__', '?limit=0', '?limit=51', '?cursor=x']) {
      const r = await call('GET', `/api/v1/archetypes${query}`);
      expect([query, r.status, r.body.error?.code]).toEqual([query, 400, 'invalid_parameter']);
    }
    // The clusters' item as another write may have left it (an older shape, a malformed trend or cluster): figures all
    // the same, what does not read left out — never a 5xx.
    const kept = (await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: clustersKey() }))).Item as Record<
      string,
      unknown
    >;
    const { trend: _trend, ...untrended } = kept;
    for (const [what, item, trend, listsGerman] of [
      ['no trend (as first written)', untrended, [], true],
      ['a trend without counts', { ...kept, trend: { weeks: ['2020-01-06'], decks: [3] } }, [], true],
      ['a trend of rows unaligned', { ...kept, trend: { weeks: ['2020-01-06'], decks: [3], counts: { x: [1, 2] } } }, [], true],
      ['a cluster without its signature', { ...kept, clusters: { [germanId]: { name: 'x' } } }, undefined, false],
      ['clusters not a map', { ...kept, clusters: 'x' }, undefined, false],
    ] as const) {
      await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item: item }));
      const { answer: r, weeks: around } = await weekAround(() => call('GET', '/api/v1/archetypes'));
      expect([what, r.status]).toEqual([what, 200]);
      expect([what, r.body.data.some((f: Figure) => f.id === germanId)]).toEqual([what, listsGerman]);
      // No trend read: the week in progress alone, its share now.
      if (trend) {
        expect([what, r.body.data[0].trend.length, r.body.data[0].trend[0].share]).toEqual([what, 1, r.body.data[0].share]);
        expect(around.has(r.body.data[0].trend[0].week)).toBe(true);
      }
      const one = await call('GET', `/api/v1/archetypes/${germanId}`);
      expect([what, one.status]).toEqual([what, listsGerman ? 200 : 404]);
    }
    await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item: kept }));

    // An id no public deck has, or no id at all: 404 in the envelope, never a 5xx.
    for (const id of [
      'cluster-germany-000000000000',
      'nobody',
      'NOT-AN-ID',
      '__proto__',
      'constructor',
      'a--b',
      'x'.repeat(65),
      '%F0%9F%92%A5',
    ]) {
      const r = await call('GET', `/api/v1/archetypes/${id}`);
      expect([id.slice(0, 20), r.status, r.body.error?.code]).toEqual([id.slice(0, 20), 404, 'not_found']);
    }
  });
});
