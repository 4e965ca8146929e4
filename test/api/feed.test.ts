/**
 * The Atom feed of public decks (contract §13.5), over HTTP on the run's runtime: it parses with a maintained feed
 * parser (feedsmith) and holds RFC 4287's required elements (§4.1.1 a feed's id, title, updated, an author, a self
 * link; §4.1.2 each entry's id, title, updated, author, an alternate link or content); search's filters keep only
 * matching decks, newest made first; a private deck is never in it, a deck turned private leaves it; ETag and 304;
 * hostile text (markup, controls, a lone surrogate) stays text. Through the edge: test/api/edge.test.ts.
 */
import { request as httpRequest } from 'node:http';
import { parseAtomFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { factionName } from '#rules/faction-names.ts';
import { baseUrl, call, code, createDeck, newOwner } from '../support/api.ts';
import { settled } from '../support/settle.ts';

const FEED = '/api/v1/decks/feed.atom';
const read = async (query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${baseUrl()}${FEED}${query}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const feedOf = async (query: string) => {
  const r = await read(query);
  expect(r.status, r.text).toBe(200);
  return parseAtomFeed(r.text);
};
/** A text construct as feedsmith gives it: a string, or its value and type. */
const textOf = (t: string | { value: string } | undefined) => (typeof t === 'string' ? t : (t?.value ?? ''));
const slugOf = (href: string | undefined) => href?.split('/d/')[1];
const slugsIn = async (query: string) =>
  ((await feedOf(query)).entries ?? []).map((e) => slugOf(e.links?.find((l) => l.rel === 'alternate')?.href));

describe('GET /api/v1/decks/feed.atom', () => {
  it("is Atom as RFC 4287 asks, each entry a public deck's name, author, dates, page and summary (nations, kredit curve, code)", async () => {
    const owner = await newOwner(undefined, 'Feed Author');
    const tag = `feed${Date.now()}`;
    const made = [];
    for (const [main, ally] of [
      ['germany', 'italy'],
      ['soviet', 'usa'],
    ] as const) {
      const r = await createDeck(owner, {
        deck_code: code(main, ally),
        visibility: 'public',
        tags: [tag],
        guide: { system: `Feed ${main}` },
      });
      expect(r.status, r.text).toBe(201);
      made.push(r.body.data);
    }
    const hidden = await createDeck(owner, { deck_code: code('japan', 'britain'), visibility: 'private', tags: [tag] });
    const unlisted = await createDeck(owner, { deck_code: code('usa', 'soviet'), visibility: 'unlisted', tags: [tag] });
    const raw = await settled(
      () => read(`?tag=${tag}`),
      (r) => (r.text.match(/<entry>/g) ?? []).length === 2,
    );
    expect(raw.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(raw.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const feed = parseAtomFeed(raw.text);
    // §4.1.1: id, title, updated, author (the feed's own), a self link.
    expect(feed.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(textOf(feed.title)).toContain(`tag=${tag}`);
    expect(Date.parse(feed.updated ?? '')).toBe(Date.parse(made[1].updated_at));
    expect(feed.authors?.[0]?.name).toBe('Deck Library');
    expect(feed.links?.find((l) => l.rel === 'self')).toMatchObject({
      href: `${baseUrl()}${FEED}?tag=${tag}`,
      type: 'application/atom+xml',
    });
    // The page for people it links answers.
    expect((await fetch(feed.links?.find((l) => l.rel === 'alternate')?.href ?? '')).status).toBe(200);
    // Newest made first; the private and the unlisted decks are not in it.
    const entries = feed.entries ?? [];
    expect(entries.map((e) => e.id)).toEqual([`urn:uuid:${made[1].id}`, `urn:uuid:${made[0].id}`]);
    expect(entries.map((e) => e.id)).not.toContain(`urn:uuid:${hidden.body.data.id}`);
    expect(entries.map((e) => e.id)).not.toContain(`urn:uuid:${unlisted.body.data.id}`);
    for (const [i, e] of entries.entries()) {
      const deck = made[1 - i];
      // §4.1.2: id, title, updated, an author, an alternate link (no content: a summary).
      expect(textOf(e.title)).toBe(deck.name);
      expect(Date.parse(e.updated ?? '')).toBe(Date.parse(deck.updated_at));
      expect(Date.parse(e.published ?? '')).toBe(Date.parse(deck.created_at));
      expect(e.authors?.[0]?.name).toBe('Feed Author');
      expect(e.links?.find((l) => l.rel === 'alternate')).toMatchObject({ href: `${baseUrl()}/d/${deck.share_slug}`, type: 'text/html' });
      expect(e.categories?.map((c) => c.term)).toContain(tag);
      const summary = textOf(e.summary);
      expect(summary).toContain(`Code: ${encodeDeckCode(parseDeckCode(deck.deck_code))}`);
      // One line (a reader may fold a text summary's breaks), its parts set apart.
      expect(summary).not.toContain('\n');
      expect(summary.split(' · ')).toContain(summary.match(/Kredits: (\d+K×\d+, )*\d+K×\d+/)?.[0]);
      expect(summary.split(' · ')[0]).toBe(`${factionName(deck.main_faction, 'en')} with ${factionName(deck.ally_faction, 'en')}`);
    }
    // Each entry's page answers, and names its nation's feed for feed readers (in its head); that feed answers Atom.
    for (const e of entries) {
      const page = await fetch(e.links?.find((l) => l.rel === 'alternate')?.href ?? '');
      expect(page.status).toBe(200);
      const href = /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="([^"]+)">/.exec(await page.text())?.[1] ?? '';
      expect(href).toMatch(new RegExp(`^${baseUrl()}${FEED}\\?main_faction=(germany|soviet)$`));
      const nation = await fetch(href.replaceAll('&amp;', '&'));
      expect([nation.status, nation.headers.get('content-type')]).toEqual([200, 'application/atom+xml; charset=utf-8']);
    }
  });

  it("keeps what search's filters keep: a nation, a card, a limit", async () => {
    const owner = await newOwner();
    const tag = `feedf${Date.now()}`;
    const german = await createDeck(owner, { deck_code: code('germany', 'italy'), visibility: 'public', tags: [tag] });
    const british = await createDeck(owner, { deck_code: code('britain', 'usa'), visibility: 'public', tags: [tag] });
    await settled(
      () => slugsIn(`?tag=${tag}`),
      (s) => s.length === 2,
    );
    expect(await slugsIn(`?tag=${tag}&main_faction=germany`)).toEqual([german.body.data.share_slug]);
    const britishCard = parseDeckCode(british.body.data.deck_code).cards.find(
      (c) => !parseDeckCode(german.body.data.deck_code).cards.some((g) => g.card_id === c.card_id),
    )?.card_id;
    expect(await slugsIn(`?tag=${tag}&card=${britishCard}`)).toEqual([british.body.data.share_slug]);
    expect(await slugsIn(`?tag=${tag}&limit=1`)).toEqual([british.body.data.share_slug]);
    // Search's own answer for the same filters agrees.
    const search = await call('GET', `/api/v1/decks?tag=${tag}&main_faction=germany`);
    expect(search.body.data.map((d: { share_slug: string }) => d.share_slug)).toEqual([german.body.data.share_slug]);
  });

  it('a deck turned private leaves the feed (as it leaves search)', async () => {
    const owner = await newOwner();
    const tag = `feedp${Date.now()}`;
    const deck = (await createDeck(owner, { deck_code: code('japan', 'usa'), visibility: 'public', tags: [tag] })).body.data;
    await settled(
      () => slugsIn(`?tag=${tag}`),
      (s) => s.length === 1,
    );
    expect((await call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { visibility: 'private' } })).status).toBe(200);
    expect(await slugsIn(`?tag=${tag}`)).toEqual([]);
  });

  it('has one permanent id a feed, whatever host serves it and in whatever order its parameters come', async () => {
    const [a, b] = ['2B', '38'];
    const ids = await Promise.all(
      [`?card=${a}&card=${b}&tag=x`, `?tag=x&card=${b}&card=${a}`, `?tag=x&card=${a}&card=${b}&limit=50`].map(
        async (q) => (await feedOf(q)).id,
      ),
    );
    expect(new Set(ids).size).toBe(1);
    const elsewhere = await fetch(`${baseUrl()}${FEED}?tag=x&card=${b}&card=${a}`, {
      headers: { 'x-forwarded-host': 'decks.example.com' },
    });
    const moved = parseAtomFeed(await elsewhere.text());
    expect(moved.id).toBe(ids[0]);
    expect(moved.links?.find((l) => l.rel === 'self')?.href).toBe(`http://decks.example.com${FEED}?tag=x&card=${a}&card=${b}`);
    expect((await feedOf('?tag=y')).id).not.toBe(ids[0]);
  });

  it('an empty feed keeps its text and ETag (its updated the epoch), and a Host that is no host name is not written', async () => {
    const [one, two] = [await read('?tag=nothing-here-at-all'), await read('?tag=nothing-here-at-all')];
    expect(two.headers.get('etag')).toBe(one.headers.get('etag'));
    expect(parseAtomFeed(one.text).updated).toBe('1970-01-01T00:00:00.000Z');
    const again = await read('?tag=nothing-here-at-all', { 'if-none-match': one.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
    const odd = await new Promise<string>((resolve, reject) => {
      const url = new URL(`${baseUrl()}${FEED}?limit=1`);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { host: 'evil.example/"><x' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(odd).not.toContain('evil.example');
    expect(odd).toContain('href="http://localhost/api/v1/decks/feed.atom?limit=1"');
  });

  it('answers 304 to its ETag, and a new ETag once a deck joins', async () => {
    const owner = await newOwner();
    const tag = `feede${Date.now()}`;
    await createDeck(owner, { deck_code: code('usa', 'britain'), visibility: 'public', tags: [tag] });
    const first = await settled(
      () => read(`?tag=${tag}`),
      (r) => r.text.includes('<entry>'),
    );
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await read(`?tag=${tag}`, { 'if-none-match': etag });
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
    // No Content-Type on a 304: a cache updating its kept feed with it would make it JSON (RFC 9111 §4.3.4).
    expect(again.headers.get('content-type')).toBeNull();
    await createDeck(owner, { deck_code: code('usa', 'soviet'), visibility: 'public', tags: [tag] });
    const changed = await settled(
      () => read(`?tag=${tag}`, { 'if-none-match': etag }),
      (r) => r.status === 200,
    );
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("keeps markup in an author's name and a guide as text (controls and lone surrogates are refused on the way in: test/unit/atom.test.ts drops them)", async () => {
    const name = 'Feed <script>alert(1)</script> & "x" ]]>';
    const owner = await newOwner(undefined, name);
    const tag = `feedh${Date.now()}`;
    const system = '<b>&amp;</b>';
    await createDeck(owner, { deck_code: code('soviet', 'britain'), visibility: 'public', tags: [tag], guide: { system } });
    const raw = await settled(
      () => read(`?tag=${tag}`),
      (r) => r.text.includes('<entry>'),
    );
    expect(raw.text).not.toContain('<script>');
    expect(raw.text).not.toContain('<b>');
    const [entry] = parseAtomFeed(raw.text).entries ?? [];
    expect(entry?.authors?.[0]?.name).toBe(name);
    expect(textOf(entry?.summary)).toContain(`Guide: ${system}`);
  });

  it('answers a bad filter with the error envelope (400), as search does', async () => {
    const r = await call('GET', `${FEED}?limit=51`);
    expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
    const card = await call('GET', `${FEED}?card=nosuchcard`);
    expect([card.status, card.body.error.code]).toEqual([400, 'invalid_parameter']);
  });
});
