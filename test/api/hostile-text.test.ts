/**
 * Hostile text that stopped the workers (issue 41), on a runtime of its own — the store-change worker on the
 * decks table's stream, its discarded-changes queue beside the data, and a catalogue whose names hold
 * characters XML refuses:
 *   1. every own property name of Object.prototype and Function.prototype as a tag, a display name and a
 *      `lang`: each tag counted (what the library plays equals a recount), found by search, exported and
 *      imported; a like given afterwards reaches search within the worker's bound;
 *   2. a record that cannot be applied (a deck item whose stored code no longer parses) is named in the
 *      discarded-changes queue and holds nothing up: a later like and a later public deck are counted;
 *   3. one owner's churn of tags (10 public decks, 360 PATCHes of 10 new 32-character tags each) leaves no
 *      item grown: a tag no deck holds has no item, and the worker keeps up;
 *   4. control characters in a display name stored before the door refused them, and a lone surrogate in a card's
 *      name (U+0000 and U+FFFE are refused at the catalogue's door): the images draw (200, a PNG), never a 500.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { contributionOf, recount } from '#rules/plays.ts';
import { factionFigures } from '#rules/plays-shown.ts';
import { normalizeTag } from '#rules/schemas.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { putAccount } from '#store/accounts.ts';
import { documentClient } from '#store/client.ts';
import { deckKey } from '#store/items/deck.ts';
import { PLAYS, PLAYS_TAG } from '#store/items/plays.ts';
import { DECKS, tableName } from '#store/tables.ts';
import type { Discarded } from '#workers/discard.ts';
import { queued } from '../../infra/local/queue.ts';
import { call, code, newOwner, type Owner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';

/** Every own property name of Object.prototype and Function.prototype (strings: Symbol.hasInstance is no text). */
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)])];

/** Whether a text holds a character XML 1.0 refuses (a control but tab, LF and CR; a lone surrogate; U+FFFE, U+FFFF). */
const refusedByXml = (text: string): boolean =>
  [...text].some((c) => {
    const n = c.codePointAt(0) as number;
    return (n < 0x20 && ![0x9, 0xa, 0xd].includes(n)) || (n >= 0xd800 && n <= 0xdfff) || n === 0xfffe || n === 0xffff;
  });

let runtime: OwnRuntime | undefined;
/** Every public deck made here, as it is now (what a recount counts). */
const decks = new Map<string, { visibility: string; main_faction: string; ally_faction: string; tags: string[]; deck_code: string }>();
const expected = () => recount([...decks.values()].map((d) => contributionOf(d)));
const discarded = () => queued(join(runtime?.dataDir as string, 'discarded-changes.jsonl')) as Discarded[];

/**
 * The demo catalogue with characters XML refuses in a card's names: U+0000 in English and U+FFFE in German when
 * `refused` (a catalogue the service refuses at its door since issue 53), else a lone surrogate in German (text the
 * door lets through: no general category of its list; drawn without it).
 */
function catalogueWithControls(refused = false): { file: string; ids: string[] } {
  const cards = JSON.parse(readFileSync(DEMO_CATALOGUE_FILE, 'utf8')) as {
    card_id: string;
    name: string;
    names?: Record<string, string>;
  }[];
  const ids = parseDeckCode(code('soviet', 'usa'))
    .cards.map((c) => c.card_id)
    .slice(0, 2);
  for (const card of cards) {
    if (refused && card.card_id === ids[0]) card.name = `NUL\u0000${card.name}`;
    if (card.card_id === ids[1]) card.names = { ...card.names, de: `${card.names?.de ?? card.name}${refused ? '\uFFFE' : ''}\uD800` };
  }
  const file = join(mkdtempSync(join(tmpdir(), 'hostile-catalogue-')), 'cards.json');
  writeFileSync(file, JSON.stringify(cards));
  return { file, ids };
}

async function publicDeck(owner: Owner, tags: string[], offset = 0) {
  const r = await call('POST', owner.decks, {
    key: owner.key,
    body: { deck_code: code('soviet', 'usa', offset), guide: { system: 'Hostile' }, tags, visibility: 'public' },
  });
  expect(r.status, r.text).toBe(201);
  decks.set(r.body.data.id, r.body.data);
  return r.body.data as { id: string; share_slug: string; deck_code: string; tags: string[] };
}

/** Search's likes of a deck (its entry in the newest-first list), once folded. */
const searchedLikes = async (slug: string) =>
  ((await call('GET', '/api/v1/decks?limit=50')).body.data as { share_slug: string; likes: number }[]).find((d) => d.share_slug === slug)
    ?.likes;

/** What the factions' figures should show, and what they show. */
const factionsMatch = async () => {
  const want = expected();
  const got = (await call('GET', '/api/v1/meta/factions')).body;
  return JSON.stringify(got.data) === JSON.stringify(factionFigures(want.decks, want.counts.pairs, want.counts.tags)) ? got : undefined;
};

beforeAll(async () => {
  runtime = await ownRuntime('hostile', { STREAM_BATCH_WINDOW_MS: '0', CATALOGUE_FILE: catalogueWithControls().file });
}, 120_000);
afterAll(() => runtime?.close());

describe('text a person chooses is a key like any other', () => {
  const owners: Owner[] = [];

  it("every name of Object's and Function's prototypes as a tag and a display name: counted, searched, shown, exported and imported; a like after them reaches search", async () => {
    for (const [i, name] of NAMES.entries()) {
      const owner = await newOwner(SCOPES, name);
      owners.push(owner);
      const deck = await publicDeck(owner, [name, NAMES[(i + 1) % NAMES.length] as string], i);
      expect(deck.tags).toEqual([...new Set([name, NAMES[(i + 1) % NAMES.length] as string].map(normalizeTag))]);
    }
    // Search by each tag finds its decks; the author is the display name as given.
    for (const name of NAMES) {
      const r = await call('GET', `/api/v1/decks?tag=${encodeURIComponent(name)}&limit=50`);
      expect([name, r.status, r.body.data.length]).toEqual([
        name,
        200,
        [...decks.values()].filter((d) => d.tags.includes(normalizeTag(name))).length,
      ]);
    }
    const shown = await call('GET', '/api/v1/decks?limit=50');
    expect(new Set(shown.body.data.map((d: { author: { display_name: string } }) => d.author.display_name))).toEqual(new Set(NAMES));
    // A like after them, on one of them: in search within the worker's bound; the figures equal a recount.
    const liked = [...decks.values()][0] as unknown as { share_slug: string };
    const liker = await newOwner();
    expect((await call('PUT', `/api/v1/users/${liker.userId}/likes/${liked.share_slug}`, { key: liker.key })).status).toBe(200);
    expect(
      await settled(
        () => searchedLikes(liked.share_slug),
        (n) => n === 1,
      ),
    ).toBe(1);
    const figures = await settled(factionsMatch, (g) => g !== undefined);
    expect(figures?.data.tags.length).toBe(new Set(NAMES.map(normalizeTag)).size);
    const recounted = await deckctl(['meta', 'recount', '--json'], { DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint });
    expect(JSON.parse(recounted.stdout)).toEqual({ decks: decks.size, drift: [] });
    // Exported, then created again in another account: the same tags.
    const from = owners[0] as Owner;
    const exported = await call('GET', `/api/v1/users/${from.userId}/export`, { key: from.key });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.data.account.display_name).toBe(NAMES[0]);
    const to = await newOwner(SCOPES, NAMES.at(-1));
    for (const deck of exported.body.data.decks) {
      const { deck_code, guide, archive, tags, visibility, sort_order, display } = deck;
      const again = await call('POST', to.decks, {
        key: to.key,
        body: { deck_code, guide, archive, tags, visibility, sort_order, display },
      });
      expect(again.status, again.text).toBe(201);
      expect(again.body.data.tags).toEqual(deck.tags);
      decks.set(again.body.data.id, again.body.data);
    }
    expect(await settled(factionsMatch, (g) => g !== undefined)).toBeDefined();
  }, 120_000);

  it("every such name as `lang` and as Accept-Language: a clear 400 or English, never an error of the service's", async () => {
    const slug = ([...decks.values()][0] as unknown as { share_slug: string }).share_slug;
    const urlCode = urlCodeOf(parseDeckCode(code('soviet', 'usa')));
    for (const name of NAMES)
      for (const path of ['/api/v1/cards?limit=1&', `/api/v1/decks/${slug}/image.png?`, `/d/${slug}?`, `/c/${urlCode}?`]) {
        const asked = await fetch(`${runtime?.baseUrl}${path}lang=${encodeURIComponent(name)}`);
        expect([name, path, asked.status]).toEqual([name, path, 400]);
        const accepted = await fetch(`${runtime?.baseUrl}${path}`, { headers: { 'accept-language': name } });
        expect([name, path, accepted.status, accepted.headers.get('content-language')]).toEqual([name, path, 200, 'en']);
      }
  }, 60_000);
});

describe('a record that cannot be applied never holds the others', () => {
  it('a deck item whose code no longer parses is named in the discarded-changes queue; a like and a public deck after it are counted', async () => {
    const owner = await newOwner();
    const poisoned = await publicDeck(owner, ['poison'], 40);
    await settled(factionsMatch, (g) => g !== undefined);
    // The store holds what the service would never write (a bad restore, a hand edit): the worker cannot apply it.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(DECKS),
        Key: deckKey(owner.userId, poisoned.id),
        UpdateExpression: 'SET deck_code = :bad, tags = :tags',
        ExpressionAttributeValues: { ':bad': '%%45|not a code', ':tags': ['poisoned'] },
      }),
    );
    const after = await publicDeck(owner, ['after'], 41);
    const liker = await newOwner();
    expect((await call('PUT', `/api/v1/users/${liker.userId}/likes/${after.share_slug}`, { key: liker.key })).status).toBe(200);
    expect(
      await settled(
        () => searchedLikes(after.share_slug),
        (n) => n === 1,
      ),
    ).toBe(1);
    const tags = await settled(
      async () => (await call('GET', '/api/v1/meta/factions')).body.data.tags as { tag: string; decks: number }[],
      (t) => t.some((x) => x.tag === 'after'),
    );
    expect(tags).toContainEqual({ tag: 'after', decks: 1 });
    const named = discarded().filter((d) => d.item.endsWith(`DECK#${poisoned.id}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named[0]).toMatchObject({ worker: 'storeChanges', error: { name: 'DeckCodeError' } });
    expect(named[0]?.record).toMatch(/^\d+$/);
    // The recount repairs what was dropped: the poisoned deck counts nothing.
    decks.delete(poisoned.id);
    const recounted = await deckctl(['meta', 'recount'], { DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint });
    expect([recounted.status, recounted.stderr]).toEqual([
      0,
      expect.stringContaining(`unreadable: deck ${poisoned.id} of user ${owner.userId}`),
    ]);
    expect(await settled(factionsMatch, (g) => g !== undefined)).toBeDefined();
  }, 60_000);
});

describe("one owner's churn of tags grows no item", () => {
  it('10 public decks, 360 PATCHes of 10 new 32-character tags each: every tag item is a live tag, none large; the worker keeps up', async () => {
    const owner = await newOwner();
    const mine = await Promise.all(Array.from({ length: 10 }, (_, i) => publicDeck(owner, ['churn'], 50 + i)));
    // 32-character CJK tags that the earlier design put in one shard (sha256 % 16 = 0): 3,600 of them.
    let n = 0;
    const nextTag = () => {
      for (;;) {
        const tag = [...String(n++).padStart(32, '0')].map((d) => String.fromCodePoint(0x4e00 + Number(d) * 97 + (n % 89))).join('');
        if (createHash('sha256').update(tag).digest().readUInt16BE(0) % 16 === 0) return tag;
      }
    };
    const patches = Array.from({ length: 360 }, (_, i) => ({
      deck: mine[i % 10] as { id: string },
      tags: Array.from({ length: 10 }, nextTag),
    }));
    for (let i = 0; i < patches.length; i += 4)
      await Promise.all(
        patches.slice(i, i + 4).map(async ({ deck, tags }) => {
          const r = await call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { tags } });
          expect(r.status, r.text).toBe(200);
          decks.set(deck.id, r.body.data);
        }),
      );
    // A like after the churn reaches search; the figures are a recount's.
    const liker = await newOwner();
    const last = mine[9] as { share_slug: string };
    expect((await call('PUT', `/api/v1/users/${liker.userId}/likes/${last.share_slug}`, { key: liker.key })).status).toBe(200);
    expect(
      await settled(
        () => searchedLikes(last.share_slug),
        (x) => x === 1,
        60_000,
      ),
    ).toBe(1);
    expect(await settled(factionsMatch, (g) => g !== undefined, 60_000)).toBeDefined();
    // Every tag item is a tag some public deck holds now; the largest figure item is small.
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateScan({ client: documentClient() }, { TableName: tableName(DECKS), ConsistentRead: true }))
      items.push(...(page.Items ?? []));
    const tagItems = items.filter((i) => PLAYS_TAG.owns(String(i.pk)));
    expect(new Set(tagItems.map((i) => i.tag))).toEqual(new Set(expected().counts.tags.keys()));
    expect(tagItems.length).toBeLessThanOrEqual(200);
    const sizes = items.filter((i) => PLAYS.owns(String(i.pk)) || PLAYS_TAG.owns(String(i.pk))).map((i) => JSON.stringify(i).length);
    expect(Math.max(...sizes)).toBeLessThan(20_000);
  }, 300_000);
});

describe('characters XML refuses, in what an image draws', () => {
  it('a display name with control characters is refused at the door; one stored before is drawn without them', async () => {
    const refused = await deckctl(['users', 'create', '--display-name', 'Ctl\u0001\u000bName0'], {
      DYNAMODB_ENDPOINT: runtime?.dynamoEndpoint,
    });
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining('a display name holds no control')]);
    // Stored by an earlier version, which took it.
    const account = { user_id: crypto.randomUUID(), display_name: 'Ctl\u0001\u000bName0', created_at: new Date().toISOString() };
    await putAccount(account);
    const { apiKey } = await issueKey(account.user_id, [...SCOPES]);
    const owner: Owner = {
      userId: account.user_id,
      key: apiKey,
      keyId: '',
      displayName: account.display_name,
      decks: `/api/v1/users/${account.user_id}/decks`,
    };
    const deck = await publicDeck(owner, [], 70);
    for (const lang of ['', '?lang=de']) {
      const image = await call('GET', `/api/v1/decks/${deck.share_slug}/image.png${lang}`);
      expect([lang, image.status, image.headers.get('content-type'), image.bytes.subarray(1, 4).toString()]).toEqual([
        lang,
        200,
        'image/png',
        'PNG',
      ]);
      const page = await call('GET', `/d/${deck.share_slug}${lang}`);
      expect([lang, page.status, refusedByXml(page.text)]).toEqual([lang, 200, false]);
    }
  });

  it("card names with U+0000 or U+FFFE are refused at the catalogue's door; one with a lone surrogate: the code image and page of a deck that holds it draw", async () => {
    expect(() => loadCatalogueFile(catalogueWithControls(true).file)).toThrow(/holds no control, format/);
    const urlCode = urlCodeOf(parseDeckCode(code('soviet', 'usa')));
    for (const lang of ['en', 'de']) {
      const image = await call('GET', `/api/v1/codes/${urlCode}/image.png?lang=${lang}`);
      expect([lang, image.status, image.headers.get('content-type')]).toEqual([lang, 200, 'image/png']);
      const page = await call('GET', `/c/${urlCode}?lang=${lang}`);
      expect([lang, page.status, refusedByXml(page.text)]).toEqual([lang, 200, false]);
    }
  });
});
