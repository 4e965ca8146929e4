/**
 * Edges people hit first (contract §10.4): every GET route answers HEAD with the GET's status and headers
 * and no body (link checkers and `curl -I` ask that first; an HTTP API matches HEAD to no GET route unless
 * it is declared: the stack declares a HEAD twin of each, test/infra checks the template); a GET route's
 * path with a trailing slash is 308 to the path without it, query kept — never the JSON 404.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LOCATION_BYTES } from '#http/redirect.ts';
import { exampleRequest, ROUTES, type Route } from '#routes';
import { parseDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { storedViews } from '#store/view-counts.ts';
import { baseUrl, call, createDeck, newOwner } from '../support/api.ts';
import { settled } from '../support/settle.ts';

const GETS = (ROUTES as readonly Route[]).filter((r) => r.method === 'GET');
/** Headers that are the request's own, not the answer's (each request has its own id and date). A HEAD's Content-Length is the GET's (RFC 9110 §8.6). */
const OWN = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const headersOf = (res: Response) =>
  Object.fromEntries([...res.headers.entries()].filter(([k]) => !OWN.has(k)).sort(([a], [b]) => a.localeCompare(b)));

describe('HEAD and trailing slashes', async () => {
  const owner = await newOwner();
  const deck = (await createDeck(owner, { visibility: 'public' })).body.data;
  // An event the owner organizes and plays in: its lists the owner's (a key of the organizer's reads them).
  const made = await call('POST', '/api/v1/events', {
    key: owner.key,
    body: {
      name: 'Cup',
      format: 'standard',
      pool_date: '2026-11-01',
      decks_per_player: 1,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  const event = made.body.data.event_id as string;
  await call('PUT', `/api/v1/events/${event}/entries/${owner.userId}`, {
    key: owner.key,
    body: { decks: [{ deck_code: deck.deck_code }] },
  });
  // A webhook of the owner's (its tag takes no deck of the run's), and its deliveries' log (none).
  const hook = await call('POST', `/api/v1/users/${owner.userId}/webhooks`, {
    key: owner.key,
    body: { url: 'http://127.0.0.1:9/head', events: ['deck.updated'], filters: { tag: `head-${process.pid}` } },
  });
  const subject: Record<string, string> = {
    webhook_id: hook.body.data.webhook_id,
    user_id: owner.userId,
    deck_id: deck.id,
    share_slug: deck.share_slug,
    version: '1',
    card_id: '2B',
    asset: 'scalar.js',
    code: urlCodeOf(parseDeckCode(deck.deck_code)),
    event_id: event,
  };
  /** A request the route answers with its success: its declared example (lib/routes/route.ts exampleRequest) on this test's decks. */
  const urlOf = (route: Route) => exampleRequest(route, subject);

  it.each(GETS.map((r) => [r.name, r] as const))('HEAD %s: the GET’s status and headers, no body', async (_name, route) => {
    const url = `${baseUrl()}${urlOf(route)}`;
    const headers =
      route.scope || route.name === 'listEntries' || route.name === 'listEntriesCsv' ? { authorization: `Bearer ${owner.key}` } : {};
    const get = await fetch(url, { headers });
    await get.arrayBuffer();
    const head = await fetch(url, { method: 'HEAD', headers });
    const body = await head.arrayBuffer();
    // A GET again: what the library plays moves as the run's other files make decks, so HEAD answers as the GET before
    // it or the one after it (a HEAD that answers otherwise than its GET answers as neither).
    const after = await fetch(url, { headers });
    await after.arrayBuffer();
    expect([route.name, head.status]).toEqual([route.name, get.status]);
    expect(get.status, route.name).toBe(route.success?.status);
    expect(body.byteLength, route.name).toBe(0);
    expect(head.headers.get('x-request-id'), route.name).toMatch(/^[0-9a-f-]{36}$/);
    expect([headersOf(get), headersOf(after)], route.name).toContainEqual(headersOf(head));
  });

  it.each(GETS.filter((r) => r.path !== '$default').map((r) => [r.name, r] as const))(
    'GET %s with a query that is not UTF-8: 400 invalid_parameter naming it, whether the route declares a query or not',
    async (_name, route) => {
      const url = urlOf(route);
      const headers = route.scope ? { authorization: `Bearer ${owner.key}` } : {};
      for (const bad of ['x=%FF', 'x=%ED%A0%80', '%C3=1'])
        expect(
          await fetch(`${baseUrl()}${url}${url.includes('?') ? '&' : '?'}${bad}`, { headers }).then(async (r) => [
            route.name,
            bad,
            r.status,
            // A page for people answers its 400 as a page (its route's htmlErrors); the rest in the envelope.
            r.headers.get('content-type')?.startsWith('text/html')
              ? 'invalid_parameter'
              : ((await r.json()) as { error: { code: string } }).error.code,
          ]),
        ).toEqual([route.name, bad, 400, 'invalid_parameter']);
    },
  );

  it('a URL-form code with white space around it (U+FEFF, U+3000) is 308 to its canonical form on every code route, as a %% code is', async () => {
    for (const route of GETS.filter((r) => r.path.includes('{code}')))
      for (const pad of ['%EF%BB%BF', '%E3%80%80', '%20'])
        for (const form of [`${pad}${subject.code}`, `${subject.code}${pad}`]) {
          const path = route.path.replace('{code}', form);
          const moved = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
          expect([path, moved.status, moved.headers.get('location')]).toEqual([
            path,
            308,
            route.path.replace('{code}', subject.code as string),
          ]);
        }
  });

  it('a HEAD of the share page or the shared read counts no view (a link checker is not a reader)', async () => {
    const checked = (await createDeck(owner, { visibility: 'public' })).body.data;
    for (const path of [`/d/${checked.share_slug}`, `/api/v1/decks/${checked.share_slug}`])
      for (let i = 0; i < 3; i++) expect((await fetch(`${baseUrl()}${path}`, { method: 'HEAD' })).status).toBe(200);
    // Then one read that counts: the access log is delivered in order, so once its view is stored the
    // HEADs before it would have been too.
    expect((await fetch(`${baseUrl()}/d/${checked.share_slug}`)).status).toBe(200);
    expect(
      await settled(
        () => storedViews(checked.share_slug),
        (v) => v >= 1,
      ),
    ).toBe(1);
  });

  it('a trailing slash on a share route’s path (a page, an image) is 308 to the path without it, query kept; other paths stay 404', async () => {
    for (const path of [
      `/d/${deck.share_slug}/`,
      `/d/${deck.share_slug}/?utm=x`,
      `/api/v1/decks/${deck.share_slug}/image.png/`,
      `/c/${subject.code}/?lang=de`,
      `/api/v1/codes/${subject.code}/image.png/?size=wide`,
    ]) {
      const moved = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
      const to = path.replace(/\/(\?|$)/, '$1');
      expect([path, moved.status, moved.headers.get('location')]).toEqual([path, 308, to]);
      const followed = await fetch(`${baseUrl()}${path}`);
      expect([path, followed.status]).toEqual([path, 200]);
    }
    const head = await fetch(`${baseUrl()}/d/${deck.share_slug}/`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(308);
    for (const path of ['/nothing/', '/d/', '//example.com/', `/d/${deck.share_slug}//x/`, `/api/v1/decks/${deck.share_slug}/`]) {
      const res = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
      expect([path, res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([path, 404, 'not_found']);
    }
    const post = await fetch(`${baseUrl()}/d/${deck.share_slug}/`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
  });

  it('a redirect whose Location would pass 8,192 bytes is 400 instead (no client could follow it; the fuzz once sent 16 KB)', async () => {
    const long = `q=${'x'.repeat(MAX_LOCATION_BYTES)}`;
    for (const path of [`/api/v1/codes/${encodeURIComponent(deck.deck_code)}`, `/d/${deck.share_slug}/`]) {
      const res = await fetch(`${baseUrl()}${path}?${long}`, { redirect: 'manual' });
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.headers.get('location')).toBeNull();
      const short = await fetch(`${baseUrl()}${path}?q=x`, { redirect: 'manual' });
      expect([path, short.status]).toEqual([path, 308]);
    }
  });
});
