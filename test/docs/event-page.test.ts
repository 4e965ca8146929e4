/**
 * An event's page (contract §13.4) as a person sees it, in a real headless Chromium (Debian's): after the deadline of
 * an event whose lists are open, at 1200 and 390 px wide, it loads with no console error and no request to another
 * host, shows each player's name and each deck's nations as text (a name that is markup stays text, a long unbroken
 * one wraps: no sideways scroll), and links each deck's page and image, which answer.
 */
import { describe, expect, it } from 'vitest';
import { encodeDeckCode } from '#rules/deck-code.ts';
import { baseUrl, call, demo, newOwner } from '../support/api.ts';
import { chromiumForFile, expectNoSidewaysScroll, watched } from '../support/browser.ts';
import { legalDeck } from '../support/decks.ts';

const browser = chromiumForFile();

describe('GET /e/:event_id in Chromium', () => {
  it('after the deadline, at 1200 and 390 px: every entry shown as text, its decks linked, no console error, no other host, no sideways scroll', async () => {
    const organizer = await newOwner(undefined, 'Open Desk');
    const names = ['<img src=x onerror=alert(1)>', `Longname${'W'.repeat(56)}`, 'Rita'];
    const players = await Promise.all(names.map((n) => newOwner(['events:submit'], n)));
    // A deadline far enough that the three submissions land before it on a loaded machine; brought near once they have.
    const deadline = new Date(Date.now() + 60_000).toISOString();
    const made = await call('POST', '/api/v1/events', {
      key: organizer.key,
      body: {
        name: `<script>alert(1)</script> Cup ${'X'.repeat(60)}`,
        description: 'Two rounds.\nBring your decks.',
        format: 'standard',
        pool_date: '2026-11-01',
        decks_per_player: 2,
        deadline,
        lists: 'open',
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.event_id;
    for (const [i, p] of players.entries()) {
      const decks = [
        { deck_code: encodeDeckCode({ main: 'germany', ally: 'italy', cards: legalDeck(demo, 'germany', 'italy', 12, i) }) },
        { deck_code: encodeDeckCode({ main: 'soviet', ally: 'usa', cards: legalDeck(demo, 'soviet', 'usa', 12, i) }) },
      ];
      const r = await call('PUT', `/api/v1/events/${id}/entries/${p.userId}`, { key: p.key, body: { decks } });
      expect(r.status, r.text).toBe(200);
    }
    const near = await call('PATCH', `/api/v1/events/${id}`, {
      key: organizer.key,
      body: { deadline: new Date(Date.now() + 1_000).toISOString() },
    });
    expect(near.status, near.text).toBe(200);
    const left = Date.parse(near.body.data.locked_at) - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left + 50));

    for (const width of [1200, 390]) {
      const context = await browser().newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const { errors, hosts } = watched(page);
      const res = await page.goto(`${baseUrl()}/e/${id}`, { waitUntil: 'networkidle' });
      expect(res?.status()).toBe(200);
      for (const n of names) expect(await page.getByText(n, { exact: true }).isVisible(), n).toBe(true);
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('section.entry').count()).toBe(3);
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
      expect([...hosts]).toEqual([new URL(baseUrl()).host]);
      // Each deck's page and image, one click away, answer.
      const links = await page.locator('section.entry a').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
      expect(links.length).toBe(3 * 2 * 2);
      for (const href of links.slice(0, 2)) expect((await fetch(href)).status, href).toBe(200);
      await context.close();
    }
  }, 60_000);
});
