/**
 * The share page (contract §9.3) as a person sees it, in a real headless Chromium (Debian's): at 1200
 * and 390 px wide it loads with no console error and no request to another host, shows every card's
 * name, draws its charts, fits the width (no sideways scroll), and its copy button copies the code; a
 * deck whose every settable string is markup shows it as text (no element, no script of its own runs).
 * Its screenshots (UPDATE_SCREENSHOT=1) are docs/share-page-1200.png and docs/share-page-390.png, in the
 * README, with the deck image docs/deck-image.png.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { baseUrl, call, code, createDeck, demo, newOwner } from '../support/api.ts';
import { chromiumForFile, expectNoSidewaysScroll, screenshotPath, watched } from '../support/browser.ts';
import { nearCopy } from '../support/decks.ts';

const browser = chromiumForFile();

/** Every card's name shown on the page. */
async function expectNamed(page: Page, cards: readonly { card_id: string }[]) {
  for (const { card_id } of cards)
    expect(
      await page
        .getByText(demo.get(card_id)?.name as string, { exact: true })
        .first()
        .isVisible(),
      card_id,
    ).toBe(true);
}

describe('GET /d/:share_slug in Chromium', () => {
  it('at 1200 and 390 px: no console error, no other host, every card named, the charts drawn, no sideways scroll; the copy button copies the code', async () => {
    const owner = await newOwner(undefined, 'Volga Veteran');
    const deckCode = code('soviet', 'usa', 2);
    const cards = parseDeckCode(deckCode).cards;
    const deck = (
      await createDeck(owner, {
        deck_code: deckCode,
        visibility: 'public',
        tags: ['aggro', 'otk'],
        guide: { system: 'Tempo', description: 'Trade early, hold the centre line.\nKeep a bomber for their HQ.' },
        archive: {
          key_components: { enabled: true, items: [{ card_id: cards[0]?.card_id, reason: 'The best opener on turn one.' }] },
          chart_settings: {
            otkConfig: {
              items: [
                { card_ids: [cards[0]?.card_id, cards[1]?.card_id], required: 2, label: 'Two openers' },
                { card_ids: [cards.at(-1)?.card_id], required: 1, label: 'Finisher' },
              ],
            },
          },
        },
      })
    ).body.data;
    const url = `${baseUrl()}/d/${deck.share_slug}`;
    for (const width of [1200, 390]) {
      const context = await browser().newContext({ viewport: { width, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      const page = await context.newPage();
      const { errors, hosts } = watched(page);
      const res = await page.goto(url, { waitUntil: 'networkidle' });
      expect(res?.status()).toBe(200);
      await expectNamed(page, cards);
      // Each card's type and rarity, in a line of its own; an ally card's pill one line high (at 390 px it once
      // grew into a tall empty box beside a name that wrapped).
      expect(await page.locator('.cards .kind').count()).toBe(cards.length);
      const kind = demo.get(cards[0]?.card_id as string);
      expect(await page.locator('.cards .kind').allTextContents()).toContain(
        `${kind?.type[0]?.toUpperCase()}${kind?.type.slice(1)} · ${kind?.rarity[0]?.toUpperCase()}${kind?.rarity.slice(1)}`,
      );
      const pills = await page.locator('.cards .ally').all();
      expect(pills.length).toBeGreaterThan(0);
      for (const pill of pills) expect((await pill.boundingBox())?.height ?? 99).toBeLessThan(26);
      // The kredit curve has a bar per cost from the lowest to the highest; the OTK chart a line per item.
      const costs = cards.map((c) => demo.get(c.card_id)?.kredits as number);
      expect(await page.locator('#curve rect').count()).toBe(Math.max(...costs) - Math.min(...costs) + 1);
      expect(await page.locator('#types rect').count()).toBeGreaterThan(0);
      expect(await page.locator('#otk polyline').count()).toBe(2);
      expect(await page.locator('#curve').isVisible()).toBe(true);
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Copy the code' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
      expect(
        await page.evaluate(() =>
          (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
        ),
      ).toBe(deckCode);
      expect([...hosts]).toEqual([new URL(baseUrl()).host]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: screenshotPath(`share-page-${width}.png`), fullPage: true });
      await context.close();
    }
    // The image the page's head names, kept beside its screenshots.
    const image = await call('GET', `/api/v1/decks/${deck.share_slug}/image.png`);
    expect(image.status).toBe(200);
    writeFileSync(screenshotPath('deck-image.png'), image.bytes);
  }, 90_000);

  it('decks like this one under the deck: fetched by its code, each a link to its page with its score, drawn as text', async () => {
    const owner = await newOwner();
    const base = parseDeckCode(code('soviet', 'usa', 31));
    const near = nearCopy(demo, base);
    const made = [];
    for (const d of [base, near])
      made.push(
        (await createDeck(owner, { deck_code: encodeDeckCode(d), visibility: 'public' })).body.data as { share_slug: string; name: string },
      );
    const [shown, like] = made as [{ share_slug: string }, { share_slug: string; name: string }];
    const context = await browser().newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    const { errors, hosts } = watched(page);
    await page.goto(`${baseUrl()}/d/${shown.share_slug}`, { waitUntil: 'networkidle' });
    // networkidle waits for the list's fetch; a slow first call of its function is given time all the same.
    await expect.poll(() => page.locator('#similar').isVisible(), { timeout: 20_000 }).toBe(true);
    const link = page.locator('#similar li a').first();
    expect(await link.getAttribute('href')).toBe(`${baseUrl()}/d/${like.share_slug}`);
    expect(await link.textContent()).toBe(like.name);
    expect(await page.locator('#similar li .score').first().textContent()).toBe('95%');
    // Drawn as text: the list holds links and scores, nothing else.
    expect(await page.locator('#similar li *:not(a):not(.score)').count()).toBe(0);
    await expectNoSidewaysScroll(page);
    expect([...hosts]).toEqual([new URL(baseUrl()).host]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('markup in every string a player can set shows as text: no element of theirs, no script of theirs runs', async () => {
    const owner = await newOwner(undefined, '<b>Author</b>');
    const deckCode = code();
    const ids = parseDeckCode(deckCode).cards.map((c) => c.card_id);
    const attack = (n: number) => `<img src=x onerror="document.title='pwned${n}'"><script>document.title='pwned${n}'</script>`;
    const deck = (
      await createDeck(owner, {
        deck_code: deckCode,
        visibility: 'public',
        tags: ['<i>tag</i>'],
        guide: { system: '<u>sys</u>', description: attack(1) },
        archive: {
          key_components: { enabled: true, items: [{ card_id: ids[0], reason: attack(2) }] },
          alternatives: { enabled: true, items: [{ card_id: ids[1], reason: attack(3) }] },
          chart_settings: { otkConfig: { items: [{ card_ids: [ids[0]], required: 1, label: '<svg onload=alert(4)>' }] } },
        },
      })
    ).body.data;
    const page = await browser().newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const { errors, hosts } = watched(page);
    await page.goto(`${baseUrl()}/d/${deck.share_slug}`, { waitUntil: 'networkidle' });
    const counts = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { title: string; querySelectorAll(s: string): { length: number } } }).document;
      return {
        title: doc.title,
        img: doc.querySelectorAll('img').length,
        script: doc.querySelectorAll('script').length,
        b: doc.querySelectorAll('b, i, u').length,
      };
    });
    expect(counts).toEqual({ title: 'Soviet Union / United States by <b>Author</b>', img: 0, script: 1, b: 0 });
    for (const text of [attack(1), attack(2), attack(3), '<svg onload=alert(4)>', '<i>tag</i>', 'Guide: <u>sys</u>'])
      expect(await page.getByText(text, { exact: false }).first().isVisible()).toBe(true);
    expect(dialogs).toEqual([]);
    expect([...hosts]).toEqual([new URL(baseUrl()).host]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('GET /c/{code} in Chromium', () => {
  it("an illegal code at 1200 and 390 px: no console error, no other host, its issues listed, every card named, no sideways scroll; a broken code's 400 page too", async () => {
    const deck = parseDeckCode(code('soviet', 'usa', 3));
    // A card short, and one no demo card has: two issues, one of them on a card.
    const illegal = urlCodeOf({ ...deck, cards: [...deck.cards.slice(1), { card_id: 'zz', count: 1 }] });
    for (const width of [1200, 390]) {
      const page = await (await browser().newContext({ viewport: { width, height: 900 } })).newPage();
      const { errors, hosts } = watched(page);
      const res = await page.goto(`${baseUrl()}/c/${illegal}`, { waitUntil: 'networkidle' });
      expect(res?.status()).toBe(200);
      expect(await page.getByRole('heading', { name: 'Not legal today' }).isVisible()).toBe(true);
      expect(await page.locator('.issues li').count()).toBe(2);
      expect(await page.locator('li.bad').count()).toBe(1);
      await expectNamed(page, deck.cards.slice(1));
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
      if (width === 390) await page.screenshot({ path: screenshotPath('code-page-390.png'), fullPage: true });
      // The 400 page: Chromium reports its status, and nothing else.
      const bad = await page.goto(`${baseUrl()}/c/${encodeURIComponent('45-<b>x</b>')}`, { waitUntil: 'networkidle' });
      expect(bad?.status()).toBe(400);
      expect(await page.getByRole('heading', { name: 'Not a deck code' }).isVisible()).toBe(true);
      expect(await page.locator('b').count()).toBe(0);
      expect([...hosts]).toEqual([new URL(baseUrl()).host]);
      expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
      await page.context().close();
    }
  }, 60_000);
});
