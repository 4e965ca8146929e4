/**
 * The docs page (contract §8.4) as a person sees it, in a real headless Chromium (Debian's): it loads
 * with no console error and no request to any host but the API's own, and shows every operation's
 * summary from the served document. Its screenshot (UPDATE_SCREENSHOT=1) is docs/api-reference.png, in the README.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REFERENCE_ROUTES } from '#routes/reference.ts';

const { docsAsset } = REFERENCE_ROUTES;

import { shippedFiles } from '#shipped';
import { baseUrl, call } from '../support/api.ts';
import { chromiumForFile, screenshotPath, watched } from '../support/browser.ts';
import { inFunction, sentBytes } from '../support/in-function.ts';

const browser = chromiumForFile();

describe('GET /api/v1/docs', () => {
  it('loads with no console error and no other host, and shows every operation', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.summary));
    const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    const { errors, hosts } = watched(page);
    const res = await page.goto(`${baseUrl()}/api/v1/docs`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-request-id']).toBeTruthy();
    // Polled from outside the page (its CSP forbids evaluating strings, which waitForFunction does).
    await expect
      .poll(
        () => page.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText.length),
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(500);
    for (const summary of summaries)
      await expect.poll(() => page.getByText(summary, { exact: false }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect([...hosts]).toEqual([new URL(baseUrl()).host]);
    expect(errors).toEqual([]);
    // The README's picture.
    await page.screenshot({ path: screenshotPath('api-reference.png') });
    await page.close();
  }, 90_000);

  it("its 'try it' for search sends no filter the reader did not pick (only defaults), and the search answers 200", async () => {
    const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    const sent: { url: string; status: Promise<number> }[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/decks')
        sent.push({ url: r.url(), status: r.response().then((res) => res?.status() ?? 0) });
    });
    await page.goto(`${baseUrl()}/api/v1/docs#tag/public-decks/GET/api/v1/decks`, { waitUntil: 'networkidle' });
    const operation = page.locator('[id$="/GET/api/v1/decks"]');
    await operation
      .getByRole('button', { name: /test request/i })
      .first()
      .click({ timeout: 30_000 });
    await page.getByRole('button', { name: /^send/i }).first().click({ timeout: 30_000 });
    await expect.poll(() => sent.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const query = new URL(sent[0]?.url as string).searchParams;
    // What Scalar sends unasked: the parameters with a default (what the server assumes anyway).
    expect([...query.keys()].sort()).toEqual(['limit', 'page', 'sort']);
    expect(await sent[0]?.status).toBe(200);
    await page.close();
  }, 90_000);

  it('a Content-Security-Policy with no unsafe-inline script and frame-ancestors none; never framed', async () => {
    const res = await fetch(`${baseUrl()}/api/v1/docs`);
    const csp = res.headers.get('content-security-policy') as string;
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual([
      "'self'",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
    ]);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(directives['script-src']?.join(' ')).not.toMatch(/unsafe-inline/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // The hashes are the page's inline scripts' (its import map and its start), and no other script is inline.
    const html = await res.text();
    const inline = [...html.matchAll(/<script(?: type="[a-z]+")?>([^<]*)<\/script>/g)].map((m) => m[1] as string);
    expect(inline).toHaveLength(2);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(directives['script-src']?.slice(1)).toEqual(
      inline.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`),
    );
  });

  it('its script is sent compressed as Accept-Encoding allows (br, else gzip), under 0.5 MB, each with its own ETag', async () => {
    const plain = Buffer.from(
      await (await fetch(`${baseUrl()}/api/v1/docs/scalar.js`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
    );
    // Raw bytes on the wire: node:http does not decode (fetch would).
    const raw = (encoding: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((ok, fail) => {
        get(`${baseUrl()}/api/v1/docs/scalar.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', fail);
      });
    const br = await raw('gzip, deflate, br');
    const gz = await raw('gzip;q=1, br;q=0');
    expect([br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect([br.headers.vary, gz.headers.vary]).toEqual(['accept-encoding', 'accept-encoding']);
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    console.log(`scalar.js: ${plain.length} bytes; br ${br.body.length}, gzip ${gz.body.length}`);
    for (const sent of [br, gz]) expect(sent.body.length).toBeLessThan(500_000);
    expect(new Set([br.headers.etag, gz.headers.etag]).size).toBe(2);
  });

  it('its script is served by the API, cacheable; an unknown asset is the 404 envelope', async () => {
    const script = await fetch(`${baseUrl()}/api/v1/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const etag = script.headers.get('etag') as string;
    expect((await fetch(`${baseUrl()}/api/v1/docs/scalar.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    for (const path of [
      '/api/v1/docs/other.js',
      '/api/v1/docs/..%2Fstandalone.js',
      '/api/v1/docs/chunks',
      '/api/v1/docs/standalone.esm.js',
    ]) {
      const missing = await call('GET', path);
      expect([missing.status, missing.body.error.code], path).toEqual([404, 'not_found']);
    }
  });

  it('a module the script imports is served beside it, immutable (its name holds its content hash)', async () => {
    const chunk = shippedFiles(docsAsset.files).find(({ to }) => to.startsWith('chunks/')) as { from: string; to: string };
    const name = chunk.to.slice('chunks/'.length);
    const res = await fetch(`${baseUrl()}/api/v1/docs/${name}`);
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(chunk.from))).toBe(true);
  });

  it('every answer of the assets route is under 3 MB as the function sends it (base64 in its JSON), whatever the Accept-Encoding', async () => {
    // In the function, as Lambda returns it: over 6 MB it would fail (the one-file build was 5.8 MB for identity).
    const names = ['scalar.js', ...shippedFiles(docsAsset.files).flatMap(({ to }) => (to.startsWith('chunks/') ? [to.slice(7)] : []))];
    expect(names.length).toBeGreaterThan(10);
    let largest = { name: '', bytes: 0 };
    for (const name of names)
      for (const accept of [undefined, 'identity', 'gzip', 'gzip, deflate, br', '*;q=0, identity']) {
        const answer = await inFunction('GET', `/api/v1/docs/${name}`, accept === undefined ? {} : { 'accept-encoding': accept });
        expect(answer.statusCode, `${name} ${accept}`).toBe(200);
        const bytes = sentBytes(answer);
        if (bytes > largest.bytes) largest = { name: `${name} (${accept ?? 'no Accept-Encoding'})`, bytes };
      }
    console.log(`docs assets: ${names.length}; the largest answer ${largest.name}, ${largest.bytes} bytes`);
    expect(largest.bytes).toBeLessThan(3_000_000);
  }, 120_000);
});
