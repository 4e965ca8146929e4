/**
 * Share pages and deck images (contract §9.3) through HTTP: the page's answer, its head as unfurlers
 * read it (open-graph-scraper), its CSP, its view, noindex and 404 page; every deck string escaped; its
 * size; the PNG decoded (pngjs: its size, not blank), its ETag and 304, and — in this process, through
 * the handler module — that a 304 renders nothing and that a catalogue change changes the ETag.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ogs from 'open-graph-scraper';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { labelsFor } from '#rules/labels.ts';
import { LIMITS } from '#rules/limits.ts';
import { escapeMarkup } from '#share/markup.ts';
import { drawable, renders } from '#share/png.ts';
import { storedViews } from '#store/view-counts.ts';
import { baseUrl, call, code, createDeck, DEMO_VERSION, demo, newOwner, type Reply } from '../support/api.ts';
import { inFunction } from '../support/in-function.ts';
import { settled } from '../support/settle.ts';

/** The card ids of a deck code. */
const cardsOf = (deckCode: string) => parseDeckCode(deckCode).cards.map((c) => c.card_id);

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

/** A deck with every string a player can set holding markup. */
async function hostileDeck(visibility = 'public') {
  const owner = await newOwner(undefined, `Author ${HOSTILE}`.slice(0, 60));
  const cards = cardsOf(code());
  const id = (i: number) => cards[i] as string;
  const deck = (
    await createDeck(owner, {
      visibility,
      tags: ['<b>bold</b>', '"quoted"'],
      guide: { system: '<i>x</i>', description: `Mulligan ${HOSTILE}\nline two` },
      archive: {
        key_components: { enabled: true, items: [{ card_id: id(0), reason: `reason ${HOSTILE}` }] },
        alternatives: { enabled: true, items: [{ card_id: id(1), reason: `alt ${HOSTILE}` }] },
        chart_settings: { otkConfig: { items: [{ card_ids: [id(0), id(1)], required: 2, label: '<svg onload=alert(3)>' }] } },
      },
    })
  ).body.data;
  return { owner, deck };
}

const csp = (r: Reply) =>
  new Map(
    (r.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name as string, values]),
  );

describe('GET /d/:share_slug', () => {
  it('a public deck: a page for people with the head unfurlers read, a strict CSP, every card named; one view counted', async () => {
    const owner = await newOwner(undefined, 'Page Author');
    const deckCode = code('soviet', 'usa', 3);
    const deck = (
      await createDeck(owner, {
        deck_code: deckCode,
        visibility: 'public',
        guide: { system: 'Tempo', description: 'Push early.' },
        archive: {
          chart_settings: { otkConfig: { items: [{ card_ids: [cardsOf(deckCode)[0]], required: 1, label: 'Opener' }] } },
          key_components: {
            enabled: true,
            items: cardsOf(deckCode)
              .slice(0, 2)
              .map((card_id) => ({ card_id, reason: 'core' })),
          },
        },
      })
    ).body.data;
    const r = await call('GET', `/d/${deck.share_slug}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    const policy = csp(r);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('script-src')?.length).toBe(1);
    expect(policy.get('script-src')?.[0]).toMatch(/^'sha256-/);
    expect([...policy.values()].flat()).not.toContain("'unsafe-inline'");
    // The head, as an unfurler reads it.
    const { result } = await ogs({ html: r.text });
    const page = `${baseUrl()}/d/${deck.share_slug}`;
    // Of today's catalogue (contract §11.5): a new one is a new URL.
    const image = `${baseUrl()}/api/v1/decks/${deck.share_slug}/image.png?catalogue=${DEMO_VERSION}`;
    expect(result.ogTitle).toBe('Soviet Union / United States by Page Author');
    // What a player wants before clicking, not the title again: the curve (copies at each cost, lowest to
    // highest) and the cards the deck is built around (its key components), counted here from the catalogue.
    const copiesAt = new Map<number, number>();
    for (const { card_id, count } of parseDeckCode(deckCode).cards) {
      const k = demo.get(card_id)?.kredits as number;
      copiesAt.set(k, (copiesAt.get(k) ?? 0) + count);
    }
    const costs = [...copiesAt.keys()];
    const curve = Array.from({ length: Math.max(...costs) - Math.min(...costs) + 1 }, (_, i) => Math.min(...costs) + i)
      .map((k) => `${k}:${copiesAt.get(k) ?? 0}`)
      .join(' ');
    const keyNames = cardsOf(deckCode)
      .slice(0, 2)
      .map((id) => demo.get(id)?.name);
    expect(result.ogDescription).toBe(
      `Soviet Union / United States · Tempo · curve ${curve} · key cards ${keyNames.join(', ')} · 39 cards`,
    );
    expect(result.ogType).toBe('website');
    expect(result.ogUrl).toBe(page);
    expect(result.ogImage?.[0]).toMatchObject({ url: image, width: '1200', height: '900', type: 'image/png' });
    expect(result.twitterCard).toBe('summary_large_image');
    expect(r.text).toMatch(/<title>Soviet Union \/ United States by Page Author<\/title>/);
    expect(r.text).not.toContain('name="robots"');
    // Every card of the deck, by its catalogue name, with its copies; the code; the charts.
    // Ally cards (United States here) are marked apart from the main faction's, in words, not by colour alone.
    // Each may show how many public Soviet decks play it (meta.test.ts checks the figures: here the library is shared).
    const played = '(?:<span class="played" title="in (\\d+)% of Soviet Union decks">\\1%</span>)?';
    const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Its type and rarity under it (issue 46), in words.
    const kind = (id: string) => {
      const card = demo.get(id);
      return literal(
        `<small class="kind">${labelsFor('en').type[card?.type ?? 'order']} · ${labelsFor('en').rarity[card?.rarity ?? 'standard']}</small>`,
      );
    };
    for (const { card_id, count } of parseDeckCode(deckCode).cards) {
      const row = literal(`<span class="n">${count}×</span><span>${demo.get(card_id)?.name}</span>`);
      const ally = demo.get(card_id)?.faction === 'usa';
      expect(r.text).toMatch(
        new RegExp(
          ally
            ? `${row}${played}<span class="ally" title="counts toward the ally limit">United States</span>${kind(card_id)}</li>`
            : `${row}${played}${kind(card_id)}</li>`,
        ),
      );
    }
    expect(r.text.match(/class="ally" /g)?.length).toBe(
      parseDeckCode(deckCode).cards.filter((c) => demo.get(c.card_id)?.faction === 'usa').length,
    );
    expect(r.text).toContain(`<code id="code">${deckCode}</code>`);
    for (const chart of ['curve', 'types', 'otk']) expect(r.text).toContain(`<svg id="${chart}"`);
    expect(Buffer.byteLength(r.text)).toBeLessThan(50_000);
    // A view, counted as the JSON read's: stored once, and the JSON read then shows it and its own.
    expect(
      await settled(
        () => storedViews(deck.share_slug),
        (v) => v >= 1,
      ),
    ).toBe(1);
    expect((await call('GET', `/api/v1/decks/${deck.share_slug}`)).body.data.views).toBe(2);
  });

  it('an unlisted deck is noindex; private, unknown and malformed slugs answer the same 404 page', async () => {
    const owner = await newOwner();
    const unlisted = (await createDeck(owner, { visibility: 'unlisted' })).body.data;
    const r = await call('GET', `/d/${unlisted.share_slug}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<meta name="robots" content="noindex">');
    const hidden = (await createDeck(owner, { visibility: 'private' })).body.data;
    const answers = await Promise.all([hidden.share_slug, 'AAAAAAAAAAAA', 'not-a-slug', '%3Cscript%3E'].map((s) => call('GET', `/d/${s}`)));
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(a.text).toContain('<h1>Deck not found</h1>');
      expect(a.text).toBe(answers[0]?.text);
    }
    expect(answers[0]?.text).not.toContain(hidden.share_slug);
    // No view is counted for a page that was not found.
    await new Promise((r2) => setTimeout(r2, 1_500));
    expect(await storedViews(hidden.share_slug)).toBe(0);
  });

  it('every deck string a player can set is escaped: no markup of theirs reaches the page', async () => {
    const { owner, deck } = await hostileDeck('unlisted');
    const r = await call('GET', `/d/${deck.share_slug}`);
    expect(r.status).toBe(200);
    for (const raw of ['<script>alert', '<img src=x', '<b>bold', '<i>x</i>', '<svg onload']) expect(r.text).not.toContain(raw);
    for (const escaped of [
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;',
      '&lt;b&gt;bold&lt;/b&gt;',
      '&quot;quoted&quot;',
      'Guide: &lt;i&gt;x&lt;/i&gt;',
      'reason &lt;script&gt;',
      'alt &lt;script&gt;',
      '&lt;svg onload=alert(3)&gt;',
      `by ${owner.displayName.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')}`,
    ])
      expect(r.text).toContain(escaped);
    // One script: the page's own.
    expect(r.text.match(/<script/g)?.length).toBe(1);
  });

  it("weight: a rich deck's page is under 50 KB; at every text limit, all but the player's own words is under 20 KB", async () => {
    const owner = await newOwner();
    const cards = cardsOf(code());
    // Prose that escapes to itself: its characters in the page are exactly the player's.
    const prose = (n: number) => 'Hold the line and trade up. '.repeat(Math.ceil(n / 28)).slice(0, n);
    const deckAt = async (description: number, reason: number) => {
      const body = {
        visibility: 'public',
        tags: Array.from({ length: LIMITS.tags }, (_, i) => `tag ${i}`.padEnd(LIMITS.tagChars, 'x')),
        guide: { system: 'S'.repeat(LIMITS.systemChars), description: prose(description) },
        archive: {
          key_components: {
            enabled: true,
            items: cards.slice(0, LIMITS.keyComponents).map((card_id) => ({ card_id, reason: prose(reason) })),
          },
          alternatives: {
            enabled: true,
            items: Array.from({ length: LIMITS.alternatives }, (_, i) => ({ card_id: cards[i % cards.length], reason: prose(reason) })),
          },
          chart_settings: {
            otkConfig: {
              items: Array.from({ length: LIMITS.otkItems }, (_, i) => ({
                card_ids: [cards[i % cards.length]],
                required: 1,
                label: `combo ${i}`.padEnd(LIMITS.labelChars, '.'),
              })),
            },
          },
        },
      };
      const deck = (await createDeck(owner, body)).body.data;
      const r = await call('GET', `/d/${deck.share_slug}`);
      expect(r.status).toBe(200);
      const words = description + (LIMITS.keyComponents + LIMITS.alternatives) * reason;
      return { bytes: Buffer.byteLength(r.text), words };
    };
    const rich = await deckAt(5_000, 300);
    expect(rich.bytes).toBeLessThan(50_000);
    const full = await deckAt(LIMITS.descriptionChars, LIMITS.reasonChars);
    // 22 KB: each card's type and rarity in words (issue 46) added about 1.8 KB to the 20 it was held to.
    expect(full.bytes - full.words).toBeLessThan(22_000);
    expect(full.bytes - full.words).toBeGreaterThan(rich.bytes - rich.words - 100);
  });
});

describe('GET /api/v1/decks/:share_slug/image.png', () => {
  it('a 1200×900 PNG by default (the embed’s: readable 400 px wide) that is not blank, with an ETag: If-None-Match is 304 with no body; a change of the deck changes it', async () => {
    const { owner, deck } = await hostileDeck();
    const path = `/api/v1/decks/${deck.share_slug}/image.png`;
    const r = await call('GET', path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    const png = PNG.sync.read(r.bytes);
    expect([png.width, png.height]).toEqual([1200, 900]);
    // Not blank: the luminance of its pixels varies (text and bars on the background).
    const luminance: number[] = [];
    for (let i = 0; i < png.data.length; i += 4 * 7)
      luminance.push(0.2126 * (png.data[i] as number) + 0.7152 * (png.data[i + 1] as number) + 0.0722 * (png.data[i + 2] as number));
    const mean = luminance.reduce((a, b) => a + b, 0) / luminance.length;
    const variance = luminance.reduce((a, b) => a + (b - mean) ** 2, 0) / luminance.length;
    expect(variance).toBeGreaterThan(100);
    const etag = r.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call('GET', path, { headers: { 'if-none-match': etag } });
    expect([again.status, again.bytes.length, again.headers.get('etag')]).toEqual([304, 0, etag]);
    // The same deck again: the same image and ETag.
    const same = await call('GET', path);
    expect([same.headers.get('etag'), same.bytes.equals(r.bytes)]).toEqual([etag, true]);
    // A change: another ETag, and the old one no longer matches.
    await call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { tags: ['changed'] } });
    const changed = await call('GET', path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    // The wide one (a link preview's large card, asked for): 1200×630, an ETag of its own.
    const wide = await call('GET', `${path}?size=wide`);
    const drawn = PNG.sync.read(wide.bytes);
    expect([wide.status, drawn.width, drawn.height, wide.headers.get('cache-control')]).toEqual([200, 1200, 630, 'public, max-age=300']);
    expect(wide.headers.get('etag')).not.toBe(changed.headers.get('etag'));
  });

  it('the page and the image in the language asked: card names (not the owner text), <html lang>, Content-Language; an ETag per language', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner, { deck_code: code('soviet', 'usa', 5), visibility: 'public' })).body.data;
    const first = parseDeckCode(deck.deck_code).cards[0]?.card_id as string;
    const [english, german] = [demo.get(first)?.name as string, demo.get(first)?.names?.de as string];
    expect(german).not.toBe(english);
    const page = await call('GET', `/d/${deck.share_slug}?lang=de`);
    expect([page.headers.get('content-language'), page.headers.get('vary')]).toEqual(['de', 'accept-language']);
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain(escapeMarkup(german));
    expect(page.text).toContain(escapeMarkup(deck.name));
    // Faction names follow the language too (the project's table); the deck's name is the owner's, as stored.
    expect(page.text).toContain(escapeMarkup(labelsFor('de').mainAlly('Sowjetunion', 'Vereinigte Staaten')));
    expect(page.text).toContain(`<h2>${labelsFor('de').cardsByKredits}</h2>`);
    // The page's link preview is the image in the page's language.
    expect(page.text).toContain(`/api/v1/decks/${deck.share_slug}/image.png?lang=de`);
    const byHeader = await call('GET', `/d/${deck.share_slug}`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(byHeader.text).toContain('<html lang="de">');
    const plain = await call('GET', `/d/${deck.share_slug}`);
    expect([plain.text.includes('<html lang="en">'), plain.text.includes(escapeMarkup(english))]).toEqual([true, true]);

    const path = `/api/v1/decks/${deck.share_slug}/image.png`;
    const [en, de] = [await call('GET', path), await call('GET', `${path}?lang=de`)];
    expect([en.headers.get('content-language'), de.headers.get('content-language')]).toEqual(['en', 'de']);
    expect(de.headers.get('etag')).not.toBe(en.headers.get('etag'));
    expect(de.bytes.equals(en.bytes)).toBe(false);
    const cached = await call('GET', `${path}?lang=de`, { headers: { 'if-none-match': de.headers.get('etag') as string } });
    expect(cached.status).toBe(304);
    expect((await call('GET', path, { headers: { 'if-none-match': de.headers.get('etag') as string } })).status).toBe(200);
  });

  it('private, unknown and malformed slugs: 404 deck_not_found in the envelope', async () => {
    const owner = await newOwner();
    const hidden = (await createDeck(owner, { visibility: 'private' })).body.data;
    for (const slug of [hidden.share_slug, 'AAAAAAAAAAAA', 'nope']) {
      const r = await call('GET', `/api/v1/decks/${slug}/image.png`);
      expect([r.status, r.body.error.code]).toEqual([404, 'deck_not_found']);
    }
  });

  it('in the function: a 304 renders nothing; a catalogue that renames one of its cards changes the ETag', async () => {
    const owner = await newOwner();
    const deckCode = code('soviet', 'usa', 5);
    const deck = (await createDeck(owner, { deck_code: deckCode, visibility: 'public' })).body.data;
    const url = `/api/v1/decks/${deck.share_slug}/image.png`;
    const get = (headers: Record<string, string> = {}) => inFunction('GET', url, headers);
    const before = renders();
    const first = await get();
    expect([first.statusCode, renders() - before]).toEqual([200, 1]);
    const etag = first.headers?.etag as string;
    const cached = await get({ 'if-none-match': etag });
    expect([cached.statusCode, renders() - before]).toEqual([304, 1]);
    // The same deck under a catalogue where one of its cards has another name.
    const renamed = parseDeckCode(deckCode).cards[0]?.card_id as string;
    const file = join(tmpdir(), `renamed-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(demo.cards.map((c) => (c.card_id === renamed ? { ...c, name: `${c.name} (renamed)` } : c))));
    const previous = process.env.CATALOGUE_FILE;
    process.env.CATALOGUE_FILE = file;
    try {
      const other = await get({ 'if-none-match': etag });
      expect(other.statusCode).toBe(200);
      expect(other.headers?.etag).not.toBe(etag);
      // Names in a script the shipped fonts draw (Cyrillic: Inter; Chinese: Noto Sans SC; Hangul: Noto Sans KR)
      // are drawn in that language; names they have no glyph for (Linear B here) are drawn in English, never
      // as boxes, and said so.
      const named = join(tmpdir(), `named-${process.pid}.json`);
      writeFileSync(
        named,
        JSON.stringify(
          demo.cards.map((c) =>
            c.card_id === renamed ? { ...c, names: { ...c.names, ru: 'Серые стрелки', zh: '灰色步枪', ko: '회색 소총', el: '𐀀𐀁' } } : c,
          ),
        ),
      );
      process.env.CATALOGUE_FILE = named;
      expect([drawable('Серые стрелки', 'ru'), drawable('灰色步枪', 'zh'), drawable('회색 소총', 'ko'), drawable('𐀀𐀁', 'el')]).toEqual([
        true,
        true,
        true,
        false,
      ]);
      const russian = await get({ 'accept-language': 'ru' });
      const chinese = await get({ 'accept-language': 'zh-CN' });
      const korean = await get({ 'accept-language': 'ko' });
      const undrawable = await get({ 'accept-language': 'el' });
      expect([russian, chinese, korean, undrawable].map((a) => a.headers?.['content-language'])).toEqual(['ru', 'zh', 'ko', 'en']);
    } finally {
      if (previous === undefined) delete process.env.CATALOGUE_FILE;
      else process.env.CATALOGUE_FILE = previous;
    }
  });
});
