/**
 * The catalogue kept current without a deploy (contract §11.5): a runtime whose functions read the published
 * catalogue (CATALOGUE_PUBLISHED=on, as the CDK stack sets it on every catalogue function; checked on every request
 * here, CATALOGUE_CHECK_SECONDS=0, where AWS has 60), started on the real English catalogue file, its daily refresh
 * run against the KARDS GraphQL stand-in (test/support/kards-standin.ts: the official shape over the real
 * catalogue, with titles in the 12 languages of its own making; it omits the endpoint's other queries, its
 * rate limits and its own changes of shape). The refresh at start publishes the endpoint's catalogue; a card
 * added there is playable through the API after one refresh (`deckctl catalogue refresh`, the same code the
 * schedule runs), with no restart; a refresh whose catalogue fails validation publishes nothing; a pointer naming
 * a version that is not its catalogue is refused once by a function, which keeps serving the one at hand.
 */
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '#rules/catalogue.ts';
import { type Deck, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { readCatalogueNow, readCatalogueText } from '#store/catalogue-read.ts';
import { documentClient } from '#store/client.ts';
import { type CatalogueNow, catalogueNowKey, cataloguePartKey } from '#store/items/catalogue.ts';
import { needed } from '#store/needed.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, newOwner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { type StandIn, type StandInFaults, startKardsStandIn } from '../support/kards-standin.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

const NEW_NAME = 'NEW SEASON FUSILIERS';
const faults: StandInFaults = {};
let standIn: StandIn;
let runtime: OwnRuntime;

const facts = (code: string) => call('GET', `/api/v1/codes/${encodeURIComponent(code)}`);
const refresh = () =>
  deckctl(['catalogue', 'refresh', '--json'], {
    DYNAMODB_ENDPOINT: runtime.dynamoEndpoint,
    KARDS_GRAPHQL_ENDPOINT: standIn.url,
    DECKCTL_BACKOFF_MS: '5',
  });

/** Polls until `ok` holds (the refresh at start runs beside the test's first requests), or fails after `ms`. */
async function until(ok: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms\n${runtime.output().slice(-2_000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.runIf(hasRealCatalogue && hasRealCodes)('the catalogue kept current (published by the daily refresh)', () => {
  beforeAll(async () => {
    standIn = await startKardsStandIn(faults);
    runtime = await ownRuntime('catalogue-refresh', {
      CATALOGUE_FILE: REAL_CATALOGUE_FILE,
      CATALOGUE_PUBLISHED: 'on',
      CATALOGUE_CHECK_SECONDS: '0',
      KARDS_GRAPHQL_ENDPOINT: standIn.url,
      DECKCTL_BACKOFF_MS: '5',
    });
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await standIn?.close();
  });

  it("the day's run (once at start) publishes the endpoint's catalogue: the functions serve its 12 languages with no restart", async () => {
    // The file the runtime started on names its cards in English only. The run at start publishes beside the test's
    // first requests: its pointer is waited for (the languages route lists the 12 served languages whatever the
    // catalogue — only their card_names change —, so 12 of them were no sign of the publication: a runtime on a quick
    // store answered the check before the run had published).
    await until(async () => (await readCatalogueNow(needed))?.languages.length === 12, "the endpoint's catalogue published");
    const inOwnNames = async () => {
      const served = ((await call('GET', '/api/v1/languages')).body?.data ?? []) as { tag: string; card_names: string }[];
      return served.length === 12 && served.every((l) => l.card_names === l.tag);
    };
    await until(inOwnNames, 'the 12 languages served, each naming its cards in itself');
    const now = await readCatalogueNow(needed);
    expect(now).toMatchObject({ cards: standIn.cards.length, parts: 1 });
    expect(now?.languages).toHaveLength(12);
    // Under the item limit, with room: the gzipped text of the real catalogue in 12 languages (stand-in names).
    expect(now?.bytes).toBeLessThan(350_000);
    console.log(`published: ${now?.cards} cards, ${now?.bytes} bytes gzipped in ${now?.parts} part(s), version ${now?.version}`);
  });

  it('a card added at the endpoint is playable through the API within one refresh; a refresh that fails validation publishes nothing', async () => {
    await until(async () => (await readCatalogueNow(needed)) !== undefined, 'the first version published');
    // A real deck the catalogue holds legal, one of its cards traded for a new season's card of the same kind.
    let deck: Deck | undefined;
    for (const real of realCodes().filter((r) => r.format === 'share')) {
      if ((await facts(real.code)).body?.data?.legality?.valid === true) {
        deck = parseDeckCode(real.code);
        break;
      }
    }
    if (!deck) throw new Error('no real share code is legal against the reference catalogue');
    const traded = deck.cards[0]?.card_id as string;
    const like = standIn.cards.find((c) => c.importId === traded);
    if (!like) throw new Error(`card ${traded} is not in the stand-in's catalogue`);
    const used = new Set(standIn.cards.map((c) => c.importId));
    const B62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const importId = [...B62].flatMap((a) => [...B62].map((b) => `${a}${b}`)).find((id) => !used.has(id)) as string;
    const code = encodeDeckCode({ ...deck, cards: deck.cards.map((c) => (c.card_id === traded ? { ...c, card_id: importId } : c)) });
    const owner = await newOwner();

    const before = await facts(code);
    expect(before.status).toBe(200);
    expect(before.body.data.cards.find((c: { card_id: string }) => c.card_id === importId)?.name).toBeNull();
    expect(before.body.data.legality.valid).toBe(false);
    const refused = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code, visibility: 'public', guide: { system: 'Tempo' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(importId);

    // The new season: the card at the endpoint, then one refresh.
    standIn.cards.push({ ...like, id: 'new_season_fusiliers', importId, name: NEW_NAME });
    const versionBefore = (await readCatalogueNow(needed))?.version;
    const published = await refresh();
    expect(published.stderr).toBe('');
    expect(published.status).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ published: true, previous: versionBefore, cards: standIn.cards.length });

    const after = await facts(code);
    expect(after.body.data.cards.find((c: { card_id: string }) => c.card_id === importId)?.name).toBe(NEW_NAME);
    expect(after.body.data.legality.valid).toBe(true);
    // Its ETag and its image's URL change with the catalogue (caches keyed by either fetch the new answer).
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body.data.links.image).not.toBe(before.body.data.links.image);
    expect(after.body.data.links.image).toContain(`catalogue=${JSON.parse(published.stdout).version}`);
    const created = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code, visibility: 'public', guide: { system: 'Tempo' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.deck_code).toBe(code);
    const version = (await readCatalogueNow(needed))?.version;

    // The same catalogue again: nothing published.
    const unchanged = await refresh();
    expect(unchanged.status).toBe(0);
    expect(JSON.parse(unchanged.stdout)).toMatchObject({ published: false, version });

    // A card the rules cannot hold (a nation no faction maps to): refused, nothing published, the API as it was.
    faults.malformedAt = 5;
    const failed = await refresh();
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/card \[5\]/);
    expect((await readCatalogueNow(needed))?.version).toBe(version);
    expect((await facts(code)).body.data.cards.find((c: { card_id: string }) => c.card_id === importId)?.name).toBe(NEW_NAME);
  }, 120_000);

  // Issue 53: a card removed upstream between two pages cost the published catalogue the card that slid across the
  // boundary, and nothing stood between a version that drops cards and every deck holding them.
  it('a card removed at the endpoint while it is paged: no card lost, the version that drops it held (named) until a second refresh agrees; --allow-removals publishes at once', async () => {
    delete faults.malformedAt;
    const idOf = (c: (typeof standIn.cards)[number]) => c.importId || c.id;
    const publishedIds = async () => {
      const now = (await readCatalogueNow(needed)) as CatalogueNow;
      return parseCatalogue(JSON.parse(await readCatalogueText(now, needed))).cards.map((c) => c.card_id);
    };
    const before = (await readCatalogueNow(needed))?.version;
    const gone = standIn.cards[45] as (typeof standIn.cards)[number];
    const slid = standIn.cards[200] as (typeof standIn.cards)[number];
    // Removed once the first pass has read 10 pages: the 11th page's first card slides onto the 10th, read already.
    faults.removeAfter = { requests: standIn.requests + 10, at: 45 };
    const held = await refresh();
    expect(held.status, held.stdout).toBe(1);
    expect(held.stderr).toContain(`${idOf(gone)} ${gone.name}`);
    expect(held.stderr).toMatch(/held until a second refresh agrees/);
    expect((await readCatalogueNow(needed))?.version).toBe(before);

    // A second refresh that drops the same card from the same version agrees: published, with every card the endpoint lists.
    const agreed = await refresh();
    expect(agreed.status, agreed.stderr).toBe(0);
    expect(JSON.parse(agreed.stdout)).toMatchObject({ published: true, previous: before, cards: standIn.cards.length });
    const ids = await publishedIds();
    expect(ids).toContain(idOf(slid));
    expect(ids).not.toContain(idOf(gone));
    expect([...ids].sort()).toEqual(standIn.cards.map(idOf).sort());

    // The operator who knows a removal is real publishes it at once.
    const next = standIn.cards.splice(100, 1)[0] as (typeof standIn.cards)[number];
    const allowed = await deckctl(['catalogue', 'refresh', '--json', '--allow-removals'], {
      DYNAMODB_ENDPOINT: runtime.dynamoEndpoint,
      KARDS_GRAPHQL_ENDPOINT: standIn.url,
      DECKCTL_BACKOFF_MS: '5',
    });
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ published: true, cards: standIn.cards.length });
    expect(await publishedIds()).not.toContain(idOf(next));
  }, 120_000);

  it('a published version that is not its catalogue is refused once, never read again while the pointer names it; the catalogue at hand serves', async () => {
    const good = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: catalogueNowKey }));
    const goodNow = good.Item as CatalogueNow;
    const code = (realCodes()[0] as { code: string }).code;
    const before = (await facts(code)).body.data;
    // A pointer naming a version whose one part is another text (as a half-failed hand edit would leave it).
    const broken = 'f'.repeat(goodNow.version.length);
    const put = (Item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item }));
    await put({ ...cataloguePartKey(broken, 0), data: gzipSync('[]') });
    await put({ ...goodNow, ...catalogueNowKey, version: broken });
    const refusals = () =>
      runtime
        .output()
        .split('\n')
        .filter((line) => line.includes(`published version is broken`) && line.includes(broken));
    const seen = refusals().length;
    // Every request checks here (CATALOGUE_CHECK_SECONDS=0): the first reads the version and refuses it, the rest only the pointer.
    for (let i = 0; i < 5; i++) expect((await facts(code)).body.data).toEqual(before);
    expect(refusals().length - seen).toBe(1);
    // The good version named again: served as before.
    await put({ ...good.Item });
    expect((await facts(code)).body.data).toEqual(before);
  }, 60_000);
});
