/**
 * The bulk files (contract §12.2, issue 57), over HTTP on a runtime of its own with its edge (a stand-in of
 * CloudFront) and its bucket (a stand-in of the S3 calls made: infra/local/objects.ts): 300 public decks, 20
 * private and 20 unlisted; two turned private, one deleted and one account erased before the export. The listing's
 * `decks` file, fetched through its download_uri at the edge, gunzips to exactly the public decks, each once, each
 * line valid against the schema the listing links (the served document's BulkDeck); its size, sha256 and records
 * true. A second export (`deckctl bulk export`) is a second file; the first is unchanged. Without the edge, the
 * listing links the bucket's own object. The files are the edge's to keep by their path alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_FOLDER } from '#rules/bulk.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { exportBulk } from '#workers/bulk-export.ts';
import { call, code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { freePort, type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';
import { PROJECT_ROOT } from '../support/shared.ts';

let runtime: OwnRuntime | undefined;
let edge = '';
let bucket = '';
/** The share slugs of the decks that are public at the export. */
const expected = new Set<string>();
/** Each deck's faction pair, as its create answered it. */
const pairOf = new Map<string, string>();
let atStart: Listed[] = [];
const kept = { BULK_BUCKET: process.env.BULK_BUCKET, S3_ENDPOINT: process.env.S3_ENDPOINT };

/** A GET's status, headers and bytes as sent (no decoding of a Content-Encoding: what the listing's size and digest are of). */
const raw = (url: string) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }>((ok, fail) => {
    httpGet(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', fail);
    }).on('error', fail);
  });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Listed {
  type: string;
  updated_at: string;
  download_uri: string;
  size: number;
  content_type: string;
  content_encoding: string;
  sha256: string;
  records: number;
  schema: string;
}
const listing = async (base: string): Promise<Listed[]> =>
  ((await (await fetch(`${base}/api/v1/bulk-data`)).json()) as { data: Listed[] }).data;

beforeAll(async () => {
  const port = await freePort();
  runtime = await ownRuntime('bulk-data', { EDGE_PORT: String(port), STREAM_BATCH_WINDOW_MS: '0' });
  edge = `http://127.0.0.1:${port}`;
  bucket = /The bulk files' bucket \(a local stand-in of S3\) on (\S+)/.exec(runtime.output())?.[1] ?? '';
  expect(bucket).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/deck-library-bulk$/);
  // The daily run at the runtime's start (as its schedule runs it): both files of an empty library, listed.
  atStart = await settled(
    () => listing(runtime?.baseUrl as string),
    (files) => files.length === 2,
  );
  const [a, b, c] = [await newOwner(), await newOwner(), await newOwner()];
  const make = async (owner: Owner, n: number, visibility: string, from: number) => {
    const made: { id: string; share_slug: string; main_faction: string; ally_faction: string }[] = [];
    for (let i = 0; i < n; i += 20)
      made.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, n - i) }, async (_, j) => {
            const k = from + i + j;
            const body = {
              visibility,
              deck_code: code(
                ['soviet', 'germany', 'britain', 'japan'][k % 4] as never,
                ['usa', 'italy', 'finland'][k % 3] as never,
                k % 7,
              ),
              guide: { system: `System ${k}`, description: `Line one of ${k}\nand "two" — ✓` },
              tags: k % 5 === 0 ? ['bulk', `t${k % 3}`] : [],
            };
            return (await createDeck(owner, body)).body.data as {
              id: string;
              share_slug: string;
              main_faction: string;
              ally_faction: string;
            };
          }),
        )),
      );
    return made;
  };
  const aPublic = await make(a, 150, 'public', 0);
  const bPublic = await make(b, 140, 'public', 150);
  const cPublic = await make(c, 10, 'public', 290);
  await make(a, 20, 'private', 300);
  await make(b, 20, 'unlisted', 320);
  for (const d of [...aPublic, ...bPublic]) {
    expected.add(d.share_slug);
    pairOf.set(d.share_slug, `${d.main_faction}/${d.ally_faction}`);
  }
  // Two turned private, one deleted, one account (with 10 public decks) erased.
  for (const d of aPublic.slice(0, 2)) {
    expect((await call('PATCH', `${a.decks}/${d.id}`, { key: a.key, body: { visibility: 'private' } })).status).toBe(200);
    expected.delete(d.share_slug);
  }
  expect((await call('DELETE', `${b.decks}/${bPublic[0]?.id}`, { key: b.key, body: {} })).status).toBe(200);
  expected.delete(bPublic[0]?.share_slug as string);
  expect((await call('DELETE', `/api/v1/users/${c.userId}`, { key: c.key, body: { confirm: c.userId } })).status).toBe(200);
  expect(cPublic.length).toBe(10);
  // The export, as the daily job runs it, on the runtime's store and bucket, its decks linked on the edge.
  process.env.S3_ENDPOINT = bucket.replace(/\/[^/]+$/, '');
  process.env.BULK_BUCKET = bucket.split('/').at(-1);
  await exportBulk(new Date(), edge);
}, 180_000);
afterAll(async () => {
  for (const [k, v] of Object.entries(kept)) if (v === undefined) delete process.env[k];
  await runtime?.close();
});

describe('GET /api/v1/bulk-data and its files (contract §12.2)', () => {
  it('through the edge: the decks file gunzips to exactly the public decks, each once, each line valid against the linked schema; size, sha256 and records true', async () => {
    expect(expected.size).toBe(287);
    const files = await listing(edge);
    expect(files.map((f) => f.type)).toEqual(['decks', 'plays']);
    const decks = files[0] as Listed;
    expect(decks.download_uri.startsWith(`${edge}/${BULK_FOLDER}/decks/decks-`)).toBe(true);
    expect(decks.download_uri).toMatch(/\/decks-\d{8}T\d{6}Z-[0-9a-f]{8}\.ndjson\.gz$/);
    expect([decks.content_type, decks.content_encoding]).toEqual(['application/x-ndjson', 'gzip']);
    const got = await raw(decks.download_uri);
    expect([got.status, got.headers['content-type'], got.headers['content-encoding'], got.headers['cache-control']]).toEqual([
      200,
      'application/x-ndjson',
      'gzip',
      'public, max-age=3600',
    ]);
    expect([got.bytes.length, sha256(got.bytes)]).toEqual([decks.size, decks.sha256]);
    const lines = gunzipSync(got.bytes).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBe(decks.records);
    const parsed = lines.map(
      (l) => JSON.parse(l) as { share_slug: string; description: string; cards: { card_id: string; import_id: string; count: number }[] },
    );
    const slugs = parsed.map((d) => d.share_slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(new Set(slugs)).toEqual(expected);
    // Each line against the schema the listing links, as the served document has it.
    expect(decks.schema).toBe(`${edge}/api/v1/openapi.json#/components/schemas/BulkDeck`);
    const document = (await (await fetch(decks.schema.split('#')[0] as string)).json()) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi');
    const validate = ajv.getSchema('openapi#/components/schemas/BulkDeck');
    expect(validate).toBeDefined();
    for (const line of parsed) expect(validate?.(line), ajv.errorsText(validate?.errors)).toBe(true);
    // A line is its deck: its code's cards, its guide's text as written, its page on the edge.
    const one = parsed.find((d) => d.description.includes('"two"')) as (typeof parsed)[0] & { deck_code: string; links: { page: string } };
    const read = await call('GET', `/api/v1/decks/${one.share_slug}`);
    expect([one.deck_code, one.description]).toEqual([read.body.data.deck_code, read.body.data.guide.description]);
    expect(one.cards).toEqual(
      parseDeckCode(one.deck_code).cards.map((c) => ({ card_id: c.card_id, import_id: c.card_id, count: c.count })),
    );
    expect(one.links.page).toBe(`${edge}/d/${one.share_slug}`);
    // The edge keeps the file by its path alone: a query and a header change nothing; the second read is a hit.
    const again = await fetch(`${decks.download_uri}?x=1`, { headers: { 'accept-language': 'de' } });
    expect([again.headers.get('x-cache'), sha256(Buffer.from(await again.arrayBuffer()))]).toEqual([
      'Hit from cloudfront',
      expect.any(String),
    ]);
  });

  it("the daily run at start (as npm start runs it): an empty library's files, then the export's newer ones", async () => {
    expect(atStart.map((f) => [f.type, f.records])).toEqual([
      ['decks', 0],
      ['plays', 0],
    ]);
    const now = await listing(runtime?.baseUrl as string);
    expect((now[0]?.updated_at as string) > (atStart[0]?.updated_at as string)).toBe(true);
    // The file of the start is still there: a new export never rewrites one.
    expect((await raw((atStart[0] as Listed).download_uri)).status).toBe(200);
  });

  it('the plays file: the library figures as meta/cards and meta/factions answer them, valid against BulkPlays', async () => {
    const plays = (await listing(edge))[1] as Listed;
    const got = await raw(plays.download_uri);
    expect([got.bytes.length, sha256(got.bytes)]).toEqual([plays.size, plays.sha256]);
    const figures = JSON.parse(gunzipSync(got.bytes).toString('utf8')) as {
      decks: number;
      cards: unknown[];
      factions: { pairs: unknown[] };
    };
    expect(figures.cards.length).toBe(plays.records);
    const document = (await (await fetch(`${edge}/api/v1/openapi.json`)).json()) as object;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi');
    expect(ajv.getSchema('openapi#/components/schemas/BulkPlays')?.(figures)).toBe(true);
  });

  it('without the edge: the listing (held to the document) links the bucket’s own object, the same bytes', async () => {
    const direct = await call('GET', '/api/v1/bulk-data');
    expect([direct.status, direct.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);
    const [decks] = direct.body.data as Listed[];
    expect(decks?.download_uri.startsWith(`${bucket}/${BULK_FOLDER}/decks/`)).toBe(true);
    const got = await raw(decks?.download_uri as string);
    expect(sha256(got.bytes)).toBe(decks?.sha256);
  });

  it("docs/sharing.md's bot, run as printed: the decks by faction pair, streamed from the file, are the public decks'", async () => {
    const block = /```js\n(\/\/ Every public deck without paging the API[\s\S]*?)```/.exec(
      readFileSync(join(PROJECT_ROOT, 'docs/sharing.md'), 'utf8'),
    )?.[1];
    expect(block).toBeDefined();
    const source = `${(block as string).replace("'http://127.0.0.1:3000'", JSON.stringify(runtime?.baseUrl))}\nexport { decksByPair };\n`;
    const { decksByPair } = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as {
      decksByPair: () => Promise<{ pairs: Map<string, number>; decks: number }>;
    };
    const { pairs, decks } = await decksByPair();
    expect(decks).toBe(expected.size);
    const byPair = new Map<string, number>();
    for (const slug of expected) byPair.set(pairOf.get(slug) as string, (byPair.get(pairOf.get(slug) as string) ?? 0) + 1);
    expect(new Map([...pairs].sort())).toEqual(new Map([...byPair].sort()));
  });

  it('a second export (deckctl bulk export) is a second file; the first is unchanged and still served', async () => {
    const [first] = await listing(edge);
    const before = await raw((first as Listed).download_uri);
    const { status, stdout, stderr } = await deckctl(['bulk', 'export', '--json'], {
      DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint,
      PUBLIC_URL: edge,
    });
    expect([status, stderr]).toEqual([0, '']);
    const printed = JSON.parse(stdout) as { files: { key: string; records: number }[]; read_units: number };
    expect(printed.files[0]?.records).toBe(287);
    expect(printed.read_units).toBeGreaterThan(0);
    const [second] = await listing(runtime?.baseUrl as string);
    expect(second?.download_uri).not.toBe(first?.download_uri);
    expect(second?.download_uri.endsWith(printed.files[0]?.key as string)).toBe(true);
    expect(second?.records).toBe(287);
    const after = await raw((first as Listed).download_uri.replace(edge, bucket));
    expect([after.status, sha256(after.bytes)]).toEqual([200, sha256(before.bytes)]);
  });

  it('two and three exports at once: every key written once, every file listed or printed as its bytes are', async () => {
    for (const n of [2, 3]) {
      const runs = await Promise.all(
        Array.from({ length: n }, () =>
          deckctl(['bulk', 'export', '--json'], { DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint, PUBLIC_URL: edge }),
        ),
      );
      expect(runs.map((r) => [r.status, r.stderr])).toEqual(Array(n).fill([0, '']));
      const files = runs.flatMap(
        (r) => (JSON.parse(r.stdout) as { files: { key: string; size: number; sha256: string; records: number }[] }).files,
      );
      // No key written twice: 2n files under 2n keys, each file's bytes what its export measured.
      expect(new Set(files.map((f) => f.key)).size).toBe(2 * n);
      for (const f of files) {
        const got = await raw(`${bucket}/${f.key}`);
        const records = f.key.includes('/decks/')
          ? gunzipSync(got.bytes).toString('utf8').split('\n').length - 1
          : (JSON.parse(gunzipSync(got.bytes).toString('utf8')) as { cards: unknown[] }).cards.length;
        expect([f.key, got.status, got.bytes.length, sha256(got.bytes), records]).toEqual([f.key, 200, f.size, f.sha256, f.records]);
      }
      // The listing names one of them per type, and says of it what its bytes are.
      for (const listed of await listing(runtime?.baseUrl as string)) {
        const got = await raw(listed.download_uri);
        expect(files.map((f) => f.key)).toContain(listed.download_uri.slice(bucket.length + 1));
        expect([got.bytes.length, sha256(got.bytes)]).toEqual([listed.size, listed.sha256]);
      }
    }
  }, 120_000);

  it('decks made private, deleted or erased a moment before an export are in no file, though the index still lists them', async () => {
    const owner = await newOwner();
    const gone = await newOwner();
    const made = await Promise.all(
      Array.from(
        { length: 6 },
        async (_, i) =>
          (await createDeck(i < 4 ? owner : gone, { visibility: 'public', deck_code: code('usa', 'soviet', i) })).body.data as {
            id: string;
            share_slug: string;
          },
      ),
    );
    // The share-slug index as it lags its table (eventually consistent): its Scan answers as it did before the change.
    const proxy = await startFaultProxy(runtime?.dynamoEndpoint as string);
    try {
      proxy.set('Scan', { kind: 'lagging', match: 'IndexName' });
      const exported = async () => {
        const run = await deckctl(['bulk', 'export', '--json'], { DYNAMODB_ENDPOINT: proxy.url, PUBLIC_URL: edge });
        expect([run.status, run.stderr]).toEqual([0, '']);
        const [decks] = (JSON.parse(run.stdout) as { files: { key: string }[] }).files;
        return gunzipSync((await raw(`${bucket}/${decks?.key}`)).bytes)
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { share_slug: string }).share_slug);
      };
      const before = await exported();
      expect(made.every((d) => before.includes(d.share_slug))).toBe(true);
      // Two turned private and one deleted at once, the account of two erased; then the export.
      await Promise.all([
        call('PATCH', `${owner.decks}/${made[0]?.id}`, { key: owner.key, body: { visibility: 'private' } }),
        call('PATCH', `${owner.decks}/${made[1]?.id}`, { key: owner.key, body: { visibility: 'private' } }),
        call('DELETE', `${owner.decks}/${made[2]?.id}`, { key: owner.key, body: {} }),
        call('DELETE', `/api/v1/users/${gone.userId}`, { key: gone.key, body: { confirm: gone.userId } }),
      ]);
      const replayed = proxy.seen.get('replayed') ?? 0;
      const after = await exported();
      // The index answered as before (every Scan page replayed), yet no deck that is not public now is in the file.
      expect((proxy.seen.get('replayed') ?? 0) - replayed).toBeGreaterThan(0);
      expect(after).toContain(made[3]?.share_slug);
      expect(made.filter((d, i) => i !== 3 && after.includes(d.share_slug))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('the bucket stand-in keeps keys as S3 does: a malformed escape is 400 (directly and through the edge), `..` a name, never a step', async () => {
    for (const base of [bucket, `${edge}`]) {
      const path = base === bucket ? `${bucket}/bulk/%ZZ` : `${edge}/bulk/%ZZ`;
      const bad = await raw(path);
      expect([path, bad.status]).toEqual([path, 400]);
    }
    // A key of `..` segments names an object that is not there: 404, not a file outside the bucket's folder.
    for (const key of [
      '..%2F..%2Fbulk%2Fdecks',
      '..%2Fuploads',
      '%2E%2E/%2E%2E/package.json',
      'bulk/decks/..%2F..%2F..%2F..%2Fpackage.json',
    ]) {
      const got = await raw(`${bucket}/${key}`);
      expect([key, got.status]).toEqual([key, 404]);
    }
    // The listed file is still read by its key.
    const [decks] = await listing(runtime?.baseUrl as string);
    expect((await raw(decks?.download_uri as string)).status).toBe(200);
  });

  it("a client of Scryfall's bulk data reads the listing and fetches a file by type unchanged", async () => {
    // What a Scryfall client writes (its /bulk-data list of bulk_data objects, then /bulk-data/{type}), pointed here.
    const scryfall = async (api: string, type: string) => {
      const list = (await (await fetch(`${api}/bulk-data`)).json()) as {
        object: string;
        has_more: boolean;
        data: { object: string; type: string; download_uri: string; size: number; uri: string }[];
      };
      if (list.object !== 'list' || list.has_more) throw new Error('not a whole list');
      const entry = list.data.find((d) => d.object === 'bulk_data' && d.type === type);
      const one = (await (await fetch(`${api}/bulk-data/${type}`)).json()) as {
        object: string;
        download_uri: string;
        size: number;
        id: string;
      };
      const byId = (await (await fetch(entry?.uri as string)).json()) as { download_uri: string };
      const file = Buffer.from(await (await fetch(one.download_uri)).arrayBuffer());
      return { entry, one, byId, file };
    };
    for (const base of [runtime?.baseUrl as string, edge]) {
      const { entry, one, byId, file } = await scryfall(`${base}/api/v1`, 'decks');
      // By type and by id, the same entry; directly, the listing's too (through the edge each is kept 5 minutes of its own).
      expect([one.object, byId.download_uri, entry?.object]).toEqual(['bulk_data', one.download_uri, 'bulk_data']);
      if (base !== edge) expect(entry?.download_uri).toBe(one.download_uri);
      // fetch undoes the declared gzip: the client reads NDJSON; the listed size is of the bytes sent.
      expect(JSON.parse(file.toString('utf8').split('\n')[0] as string)).toHaveProperty('share_slug');
      expect((await raw(one.download_uri)).bytes.length).toBe(one.size);
    }
    const none = await call('GET', '/api/v1/bulk-data/cards');
    expect([none.status, none.body.error.code]).toEqual([404, 'not_found']);
  });
});
