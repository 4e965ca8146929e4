/**
 * Browsers (contract §8.3): preflights answered as API Gateway's CORS configuration answers them (one
 * definition, routes.ts CORS, drives both), cross-origin answers carrying Allow-Origin and the exposed
 * headers, and a page on another origin, in a real headless Chromium, creating and reading a deck.
 */
import { createServer, type Server } from 'node:http';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS } from '#routes';
import { baseUrl, code, newOwner } from '../support/api.ts';

const preflight = (path: string, method: string, headers: string) =>
  fetch(`${baseUrl()}${path}`, {
    method: 'OPTIONS',
    headers: { origin: 'https://cards.example', 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

describe('CORS', () => {
  it('a preflight for an owner PATCH and for a public GET: 204 with the configured methods, headers and max age', async () => {
    const owner = await newOwner();
    for (const [path, method, headers] of [
      [`${owner.decks}/00000000-0000-4000-8000-000000000000`, 'PATCH', 'authorization,content-type,if-match'],
      ['/api/v1/decks', 'GET', 'if-none-match'],
    ] as const) {
      const r = await preflight(path, method, headers);
      expect(r.status, path).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-allow-methods')?.split(',')).toEqual([...CORS.allowMethods]);
      expect(r.headers.get('access-control-allow-headers')?.split(',')).toEqual(expect.arrayContaining(headers.split(',')));
      expect(r.headers.get('access-control-max-age')).toBe(String(CORS.maxAgeSeconds));
      expect(await r.text()).toBe('');
    }
  });

  it('a cross-origin answer allows the origin and exposes ETag, Location, Retry-After, X-Request-Id, Idempotent-Replayed', async () => {
    const r = await fetch(`${baseUrl()}/api/v1/cards/2B`, { headers: { origin: 'https://cards.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')?.split(',')).toEqual([...CORS.exposeHeaders]);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('a page on another origin, in headless Chromium', () => {
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>'),
    );
    await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
    // Another origin: another host name (localhost, not 127.0.0.1) and another port.
    siteUrl = `http://localhost:${(site.address() as { port: number }).port}/`;
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    site?.close();
  });

  it('creates a deck with a key (a preflighted POST) and reads it back, the ETag readable', async () => {
    const owner = await newOwner();
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const result = await page.evaluate(
      async ({ api, decks, key, deckCode }) => {
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        const created = await fetch(`${api}${decks}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ deck_code: deckCode, guide: { system: 'Cross-origin' } }),
        });
        const body = (await created.json()) as { data: { id: string } };
        const read = await fetch(`${api}${decks}/${body.data.id}`, { headers });
        return {
          origin: (globalThis as unknown as { location: { origin: string } }).location.origin,
          created: created.status,
          location: created.headers.get('location'),
          read: read.status,
          etag: read.headers.get('etag'),
          name: ((await read.json()) as { data: { guide: { system: string } } }).data.guide.system,
        };
      },
      { api: baseUrl(), decks: owner.decks, key: owner.key, deckCode: code() },
    );
    expect(result.origin).not.toBe(new URL(baseUrl()).origin);
    expect(result).toMatchObject({ created: 201, read: 200, etag: '"1"', name: 'Cross-origin' });
    expect(result.location).toMatch(new RegExp(`^${owner.decks}/`));
  }, 60_000);
});
