/**
 * Any deck code, no account (contract §10.2), through HTTP: its facts, its image and its page; one
 * canonical URL a deck (308 from any other spelling, query kept); codes that do not parse (400, saying
 * where), hostile and malformed ones (random mutations, every byte value, 64 KB) never a 5xx. Every real
 * code of ../shared with the real catalogue, in the functions (Powertools' in-process handler tests: the
 * handler modules as Lambda calls them; HTTP adds nothing there, and the run's runtime serves the demo
 * catalogue).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ogs from 'open-graph-scraper';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '#catalogue/load.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { DECK_SIZE } from '#rules/deck-rules.ts';
import { factionName } from '#rules/faction-names.ts';
import { DEFAULT_IMAGE_SIZE, IMAGE_SIZES, type ImageSize } from '#rules/image-sizes.ts';
import { labelsFor } from '#rules/labels.ts';
import { LIMITS } from '#rules/limits.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { escapeMarkup } from '#share/markup.ts';
import { renders } from '#share/png.ts';
import { baseUrl, call, code, createDeck, DEMO_VERSION, demo, newOwner, type Reply } from '../support/api.ts';
import { inFunction, inFunctionReply } from '../support/in-function.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

/** A code's URL form. */
const urlOf = (deckCode: string) => urlCodeOf(parseDeckCode(deckCode));
/** The same deck with each group's ids in reverse order: another spelling of it. */
const reversed = (deckCode: string) => {
  const [head, body] = deckCode.split('|') as [string, string];
  return `${head}|${body
    .split(';')
    .map((g) => (g.match(/../g) ?? []).reverse().join(''))
    .join(';')}`;
};

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD's bytes: what a client can send). */
const pct = (s: string) =>
  [...Buffer.from(s)]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');

/** A decoded PNG is of the size (the default, 1200×900, unless said) and not blank (its luminance varies: text and bars on the background). */
function expectDrawn(bytes: Buffer, size: ImageSize = DEFAULT_IMAGE_SIZE) {
  const png = PNG.sync.read(bytes);
  expect([png.width, png.height]).toEqual([IMAGE_SIZES[size].width, IMAGE_SIZES[size].height]);
  const luminance: number[] = [];
  for (let i = 0; i < png.data.length; i += 4 * 7)
    luminance.push(0.2126 * (png.data[i] as number) + 0.7152 * (png.data[i + 1] as number) + 0.0722 * (png.data[i + 2] as number));
  const mean = luminance.reduce((a, b) => a + b, 0) / luminance.length;
  expect(luminance.reduce((a, b) => a + (b - mean) ** 2, 0) / luminance.length).toBeGreaterThan(100);
}

/** An answer of the functions in this process, as `call` gives one over HTTP. */
const inProcess = (path: string, headers: Record<string, string> = {}): Promise<Reply> => inFunctionReply('GET', path, headers);

const legal = code('soviet', 'usa', 4);
const canonical = urlOf(legal);

describe('GET /api/v1/codes/{code}', () => {
  it("a legal code: its factions, every card by kredits then name, the stats and legality of a saved deck's read, its forms and links", async () => {
    const r = await call('GET', `/api/v1/codes/${canonical}`);
    expect(r.status).toBe(200);
    const facts = r.body.data;
    expect([facts.deck_code, facts.url_code, facts.main_faction, facts.ally_faction, facts.name]).toEqual([
      encodeDeckCode(parseDeckCode(legal)),
      canonical,
      'soviet',
      'usa',
      'Soviet Union / United States',
    ]);
    expect(facts.legality).toMatchObject({ valid: true, errors: [], ranked: { legal: true, reserved_cards: [] } });
    const cards = facts.cards as { card_id: string; name: string; kredits: number; count: number; type: string; rarity: string }[];
    expect(cards.reduce((n, c) => n + c.count, 0)).toBe(DECK_SIZE);
    for (const c of cards) {
      const card = demo.get(c.card_id);
      expect([c.name, c.kredits, c.type, c.rarity]).toEqual([card?.name, card?.kredits, card?.type, card?.rarity]);
    }
    const order = cards.map((c) => [c.kredits, c.name]);
    expect(order).toEqual(
      [...order].sort(([ka, na], [kb, nb]) => (ka as number) - (kb as number) || String(na).localeCompare(String(nb), 'en')),
    );
    // The stats are a saved deck's (contract §8.6): counts of the 39 cards.
    expect(Object.values(facts.stats.by_type as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(DECK_SIZE);
    expect(facts.links).toEqual({
      page: `${baseUrl()}/c/${canonical}`,
      image: `${baseUrl()}/api/v1/codes/${canonical}/image.png?catalogue=${DEMO_VERSION}`,
      preview: `${baseUrl()}/api/v1/codes/${canonical}/image.png?catalogue=${DEMO_VERSION}`,
    });
    // Cacheable: an ETag, 304 on it.
    const again = await call('GET', `/api/v1/codes/${canonical}`, { headers: { 'if-none-match': r.headers.get('etag') as string } });
    expect(again.status).toBe(304);
  });

  it("its archetype (contract §13.3): the demo rules' first that takes it, named in the language asked; null when none does", async () => {
    const taken = urlOf(code('soviet', 'usa', 0));
    const en = await call('GET', `/api/v1/codes/${taken}`);
    expect(en.body.data.archetype).toEqual({
      id: 'soviet-grey-rifles-thistle',
      name: 'Soviet Union · Volga Grey Rifles and Volga Thistle Mk I',
      by: 'rule',
    });
    const de = await call('GET', `/api/v1/codes/${taken}?lang=de`);
    expect(de.body.data.archetype.name).toBe('Sowjetunion · Volga Grey Rifles und Volga Thistle Mk I');
    // A pasted deck's answer is the same facts.
    const pasted = await call('POST', '/api/v1/codes', { raw: code('soviet', 'usa', 0), headers: { 'content-type': 'text/plain' } });
    expect([pasted.status, pasted.body.data?.archetype?.id]).toEqual([200, 'soviet-grey-rifles-thistle']);
    // A Soviet deck without the rule's cards (it holds neither Volga Grey Rifles nor Volga Thistle Mk I): none.
    expect((await call('GET', `/api/v1/codes/${canonical}`)).body.data.archetype).toBeNull();
  });

  it('any other spelling (the %% form, groups in another order, either form) answers 308 to the one canonical URL, query kept', async () => {
    const spellings = [legal, reversed(legal), reversed(legal).slice(2).replace('|', '-').replaceAll(';', '-'), ` ${legal}`];
    const routes = ['/api/v1/codes/', '/c/'];
    const locations = new Set<string>();
    for (const route of routes)
      for (const spelling of spellings) {
        const r = await call('GET', `${route}${encodeURIComponent(spelling)}?lang=de`, { redirect: 'manual' });
        expect([r.status, r.headers.get('location')], spelling).toEqual([308, `${route}${canonical}?lang=de`]);
        locations.add(r.headers.get('location') as string);
      }
    expect(locations.size).toBe(routes.length);
    const image = await call('HEAD', `/api/v1/codes/${encodeURIComponent(reversed(legal))}/image.png`, { redirect: 'manual' });
    expect([image.status, image.headers.get('location')]).toEqual([308, `/api/v1/codes/${canonical}/image.png`]);
    // Followed, it is the canonical answer.
    expect((await call('GET', `/api/v1/codes/${encodeURIComponent(legal)}`)).body.data.url_code).toBe(canonical);
  });

  it('a kards.com deck-builder link in a code’s place (URL-encoded, the code in either form) answers 308 to the canonical URL on every code route, and the same facts as the code (issue 56)', async () => {
    const links = [legal, canonical].flatMap((c) => [
      `https://www.kards.com/decks/deck-builder?hash=${encodeURIComponent(c)}`,
      `https://www.kards.com/de/decks/deck-builder?hash=${encodeURIComponent(c)}`,
    ]);
    for (const link of links)
      for (const [path, to] of [
        [`/api/v1/codes/${encodeURIComponent(link)}?lang=de`, `/api/v1/codes/${canonical}?lang=de`],
        [`/api/v1/codes/${encodeURIComponent(link)}/image.png`, `/api/v1/codes/${canonical}/image.png`],
        [`/api/v1/codes/${encodeURIComponent(link)}/deck.txt`, `/api/v1/codes/${canonical}/deck.txt`],
        [`/c/${encodeURIComponent(link)}`, `/c/${canonical}`],
      ]) {
        const r = await call('GET', path as string, { redirect: 'manual' });
        expect([link, r.status, r.headers.get('location')]).toEqual([link, 308, to]);
      }
    const facts = (await call('GET', `/api/v1/codes/${canonical}`)).body.data;
    const followed = await call('GET', `/api/v1/codes/${encodeURIComponent(links[0] as string)}`);
    expect([followed.status, followed.body.data]).toEqual([200, facts]);
    // A link with no code in it is the code routes' 400, saying where a code goes.
    const none = await call('GET', `/api/v1/codes/${encodeURIComponent('https://www.kards.com/decks/deck-builder')}`);
    expect([none.status, none.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect(none.body.error.message).toContain('?hash=');
    // Too long a link is refused before it is read.
    const long = await call('GET', `/api/v1/codes/${encodeURIComponent(`https://www.kards.com/?x=${'a'.repeat(700)}`)}`);
    expect([long.status, long.body.error.message]).toEqual([400, expect.stringContaining('at most 600 characters')]);
  });

  it('a code that does not parse: 400 invalid_parameter saying what is wrong and at which offset of the code as sent', async () => {
    for (const [segment, offset] of [
      [`${canonical.slice(0, 10)}!${canonical.slice(11)}`, 10],
      ['65---2H', 0],
      ['%%45|;;2H;2B!', 12],
    ] as const) {
      const r = await call('GET', `/api/v1/codes/${encodeURIComponent(segment)}`);
      expect([r.status, r.body.error.code], segment).toEqual([400, 'invalid_parameter']);
      expect(r.body.error.message, segment).toMatch(new RegExp(`^code is not a deck code: .* at offset ${offset}$`));
    }
    const long = await call('GET', `/api/v1/codes/${'2H'.repeat(LIMITS.deckCodeChars)}`);
    expect([long.status, long.body.error.message]).toEqual([
      400,
      `code: a deck code has at most ${LIMITS.deckCodeChars} characters; this one has ${2 * LIMITS.deckCodeChars}`,
    ]);
  });

  it('a card of the Reserve pool (contract §11.5): legal, not ranked-legal, the card named; the page and the image say so', async () => {
    const reserved = demo.cards.find((c) => c.reserved && c.faction === 'soviet');
    expect(reserved).toBeDefined();
    const deck = parseDeckCode(legal);
    const [head, ...rest] = deck.cards as [{ card_id: string; count: number }, ...{ card_id: string; count: number }[]];
    const cards = [
      ...(head.count > 1 ? [{ ...head, count: head.count - 1 }] : []),
      ...rest,
      { card_id: reserved?.card_id as string, count: 1 },
    ];
    const url = urlOf(encodeDeckCode({ ...deck, cards }));
    const facts = (await call('GET', `/api/v1/codes/${url}`)).body.data;
    expect(facts.legality).toMatchObject({ valid: true, errors: [], ranked: { legal: false, reserved_cards: [reserved?.card_id] } });
    const page = await call('GET', `/c/${url}`);
    expect(page.text).toContain('<h2>Not for ranked play</h2>');
    expect(page.text).toContain(`<li>${escapeMarkup(reserved?.name as string)}</li>`);
    const image = await call('GET', `/api/v1/codes/${url}/image.png`);
    expect(image.status).toBe(200);
    expectDrawn(image.bytes);
    expect(image.headers.get('etag')).not.toBe((await call('GET', `/api/v1/codes/${canonical}/image.png`)).headers.get('etag'));
  });

  it('an illegal code: its issues in legality, a card the catalogue does not know with nulls, last', async () => {
    const deck = parseDeckCode(legal);
    // One card fewer, and an id no demo card has.
    const illegal = encodeDeckCode({ ...deck, cards: [...deck.cards.slice(1), { card_id: 'zz', count: 1 }] });
    const r = await call('GET', `/api/v1/codes/${urlOf(illegal)}`);
    expect(r.status).toBe(200);
    expect(r.body.data.legality.valid).toBe(false);
    expect(r.body.data.legality.errors.map((e: { code: string }) => e.code)).toContain('unknown_card');
    expect(r.body.data.cards.at(-1)).toEqual({
      card_id: 'zz',
      name: null,
      kredits: null,
      type: null,
      rarity: null,
      faction: null,
      count: 1,
    });
  });

  it('lang: card and faction names in the language asked, Content-Language and Vary; the links keep it', async () => {
    const r = await call('GET', `/api/v1/codes/${canonical}?lang=de`);
    expect([r.headers.get('content-language'), r.headers.get('vary')]).toEqual(['de', 'accept-language']);
    expect(r.body.data.name).toBe('Sowjetunion / Vereinigte Staaten');
    const first = r.body.data.cards[0];
    expect(first.name).toBe(demo.get(first.card_id)?.names?.de);
    expect(r.body.data.links.image).toBe(`${baseUrl()}/api/v1/codes/${canonical}/image.png?lang=de&catalogue=${DEMO_VERSION}`);
    expect(r.body.data.links.preview).toBe(`${baseUrl()}/api/v1/codes/${canonical}/image.png?lang=de&catalogue=${DEMO_VERSION}`);
    const bad = await call('GET', `/api/v1/codes/${canonical}?lang=__proto__`);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
  });
});

describe('GET /api/v1/codes/{code}/image.png', () => {
  it('a 1200×900 PNG by default (readable 400 px wide), cached a day, an ETag per code and language: If-None-Match is 304 and, in the function, draws nothing', async () => {
    const path = `/api/v1/codes/${canonical}/image.png`;
    const r = await call('GET', path);
    expect([r.status, r.headers.get('content-type'), r.headers.get('cache-control')]).toEqual([200, 'image/png', 'public, max-age=86400']);
    expectDrawn(r.bytes);
    const etag = r.headers.get('etag') as string;
    expect((await call('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const de = await call('GET', `${path}?lang=de`);
    expect([de.headers.get('content-language'), de.headers.get('etag') === etag]).toEqual(['de', false]);
    const other = await call('GET', `/api/v1/codes/${urlOf(code('soviet', 'usa', 5))}/image.png`);
    expect(other.headers.get('etag')).not.toBe(etag);
    // In the function: a matching ETag is answered before anything is laid out or drawn.
    const before = renders();
    const cached = await inFunction('GET', path, { 'if-none-match': etag });
    expect([cached.statusCode, renders()]).toEqual([304, before]);
    await inFunction('GET', path);
    expect(renders()).toBe(before + 1);
  });

  it('size=wide (contract §12.5, §13.1): a 1200×630 PNG with an ETag of its own (another URL: another entry at the edge); the default is the embed’s size; a size not served is 400', async () => {
    const path = `/api/v1/codes/${canonical}/image.png`;
    const [embed, wide] = await Promise.all([call('GET', path), call('GET', `${path}?size=wide`)]);
    expect([wide.status, wide.headers.get('cache-control')]).toEqual([200, 'public, max-age=86400']);
    expectDrawn(wide.bytes, 'wide');
    expectDrawn(embed.bytes, 'embed');
    expect(embed.headers.get('etag')).not.toBe(wide.headers.get('etag'));
    expect((await call('GET', `${path}?size=wide`, { headers: { 'if-none-match': wide.headers.get('etag') as string } })).status).toBe(304);
    expect((await call('GET', `${path}?size=embed`)).bytes.equals(embed.bytes)).toBe(true);
    const bad = await call('GET', `${path}?size=huge`);
    expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([
      400,
      'invalid_parameter',
      expect.stringContaining('size is one of wide, embed'),
    ]);
  });

  it('an illegal deck says why, and is drawn as another image than the legal one', async () => {
    const deck = parseDeckCode(legal);
    const short = encodeDeckCode({ ...deck, cards: deck.cards.slice(1) });
    const r = await call('GET', `/api/v1/codes/${urlOf(short)}/image.png`);
    expect(r.status).toBe(200);
    expectDrawn(r.bytes);
    expect(r.bytes.equals((await call('GET', `/api/v1/codes/${canonical}/image.png`)).bytes)).toBe(false);
    // The README shows it (UPDATE_SCREENSHOT=1 writes docs/code-image.png).
    if (process.env.UPDATE_SCREENSHOT) writeFileSync(join(import.meta.dirname, '../../docs/code-image.png'), r.bytes);
    const bad = await call('GET', `/api/v1/codes/${encodeURIComponent('%%45|;;2H;2B!')}/image.png`);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
  });
});

describe('GET /c/{code}', () => {
  it('a page without author, guide or views; its head unfurls as the code image, whose URL answers the image', async () => {
    const r = await call('GET', `/c/${canonical}`);
    expect([r.status, r.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(r.text).toContain('<meta name="robots" content="noindex">');
    expect(r.text).not.toMatch(/class="by">by /);
    for (const { card_id } of parseDeckCode(legal).cards) expect(r.text).toContain(escapeMarkup(demo.get(card_id)?.name as string));
    const { result } = await ogs({ html: r.text });
    expect(result.ogTitle).toBe('Soviet Union / United States · a KARDS deck');
    expect(result.twitterCard).toBe('summary_large_image');
    const image = new URL(result.ogImage?.[0]?.url as string);
    // The default image (no size: the embed's, readable 400 px wide).
    expect([image.pathname, image.searchParams.get('size')]).toEqual([`/api/v1/codes/${canonical}/image.png`, null]);
    expect([result.ogImage?.[0]?.width, result.ogImage?.[0]?.height]).toEqual(['1200', '900']);
    const drawn = await call('GET', image.pathname + image.search);
    expect(drawn.status).toBe(200);
    expectDrawn(drawn.bytes, 'embed');
  });

  it('a code that does not parse, or a bad lang: a 400 page saying what is wrong (escaped)', async () => {
    const r = await call('GET', `/c/${encodeURIComponent('45-<b>x</b>')}`);
    expect([r.status, r.headers.get('content-type')]).toEqual([400, 'text/html; charset=utf-8']);
    expect(r.text).toContain('Not a deck code');
    expect(r.text).toContain('at offset 3');
    expect(r.text).not.toContain('<b>x</b>');
    const lang = await call('GET', `/c/${canonical}?lang=%3Cx%3E`);
    expect([lang.status, lang.text.includes('Not a deck code')]).toEqual([400, true]);
  });
});

describe("the game client's storage form (contract §11.5: %%MA|groups~groups|<HQ>)", () => {
  const storage = `${legal}~;;;|6l1g`;
  it('answers as its canonical code wherever a code is taken: 308 from the code routes and the page, the same facts when pasted, the canonical code stored by a create', async () => {
    for (const [path, to] of [
      [`/api/v1/codes/${encodeURIComponent(storage)}?lang=de`, `/api/v1/codes/${canonical}?lang=de`],
      [`/api/v1/codes/${encodeURIComponent(storage)}/image.png`, `/api/v1/codes/${canonical}/image.png`],
      [`/api/v1/codes/${encodeURIComponent(storage)}/deck.txt`, `/api/v1/codes/${canonical}/deck.txt`],
      [`/c/${encodeURIComponent(storage)}`, `/c/${canonical}`],
    ]) {
      const r = await call('GET', path as string, { redirect: 'manual' });
      expect([r.status, r.headers.get('location')]).toEqual([308, to]);
    }
    const facts = (await call('GET', `/api/v1/codes/${canonical}`)).body.data;
    const pasted = await call('POST', '/api/v1/codes', { raw: storage, headers: { 'content-type': 'text/plain' } });
    expect([pasted.status, pasted.body.data]).toEqual([200, facts]);
    const owner = await newOwner();
    const created = await createDeck(owner, { deck_code: ` ${storage}\n` });
    expect(created.body.data.deck_code).toBe(facts.deck_code);
  });

  it('a damaged tail is 400 saying where', async () => {
    const r = await call('GET', `/api/v1/codes/${encodeURIComponent(`${legal}~;;;|6l`)}`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(`offset ${legal.length + 7}`);
  });
});

describe('hostile and malformed codes', () => {
  /** Each answer: never a 5xx; a 200 only for a canonical code; a 308 to a canonical code; a 400 in the envelope. */
  async function expectSafe(segment: string) {
    const r = await call('GET', `/api/v1/codes/${segment}`, { redirect: 'manual' });
    const where = `${segment} -> ${r.status} ${r.text.slice(0, 200)}`;
    expect([200, 308, 400, 404], where).toContain(r.status);
    if (r.status === 200) expect(r.body.data.url_code, where).toBe(decodeURIComponent(segment));
    if (r.status === 308) {
      // The code it sends to is in its canonical URL form.
      const to = (r.headers.get('location') as string).split('/').at(-1) as string;
      expect(urlOf(`%%${to.replace('-', '|').replaceAll('-', ';')}`), where).toBe(to);
    }
    if (r.status >= 400) expect(r.body.error.code, where).toMatch(/^(invalid_parameter|not_found)$/);
    return r.status;
  }

  it('200 random mutations of real and demo codes in either form', async () => {
    const codes = [
      legal,
      ...realCodes()
        .filter((c) => c.format === 'share')
        .map((c) => c.code),
    ];
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...codes),
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.oneof(fc.string({ unit: 'binary', maxLength: 2 }), fc.constantFrom('-', '|', ';', '%', '/', '?', '#', '')),
            fc.nat(3),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        async (deckCode, urlForm, edits) => {
          let s = urlForm ? urlOf(deckCode) : deckCode;
          for (const [at, text, cut] of edits) {
            const i = at % (s.length + 1);
            s = s.slice(0, i) + text + s.slice(i + cut);
          }
          const status = await expectSafe(pct(s));
          seen.set(status, (seen.get(status) ?? 0) + 1);
        },
      ),
      { numRuns: 200 },
    );
    // Mutations that break a code and ones that only reorder or trim it both happen.
    expect(seen.get(400) ?? 0).toBeGreaterThan(20);
  });

  it('every byte value, alone and inside a code', async () => {
    for (let b = 0; b < 256; b++) {
      const byte = `%${b.toString(16).padStart(2, '0').toUpperCase()}`;
      await expectSafe(byte);
      await expectSafe(`${canonical.slice(0, 6)}${byte}${canonical.slice(6)}`);
    }
  });

  it('64 KB codes: the function refuses them before reading (400); through HTTP the request line is over the limit (431)', async () => {
    for (const segment of ['2H'.repeat(32 * 1024), `${canonical}${'-'.repeat(64 * 1024)}`]) {
      const inside = await inProcess(`/api/v1/codes/${segment}`);
      expect([inside.status, inside.body.error.code]).toEqual([400, 'invalid_parameter']);
      const page = await inProcess(`/c/${segment}`);
      expect([page.status, page.text.includes('at most 400 characters')]).toEqual([400, true]);
      // Not through `call`: the document declares what the functions answer, and this is the gateway's.
      const sent = await fetch(`${baseUrl()}/api/v1/codes/${segment}`);
      expect([sent.status, ((await sent.json()) as { error: { code: string } }).error.code]).toEqual([431, 'headers_too_large']);
    }
  });
});

describe.skipIf(!hasRealCodes || !hasRealCatalogue)('every real code of ../shared with the real catalogue, in the functions', () => {
  const real = realCodes().filter((c) => c.format === 'share');
  const catalogue = hasRealCatalogue ? loadCatalogueFile(REAL_CATALOGUE_FILE) : undefined;
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.CATALOGUE_FILE;
    process.env.CATALOGUE_FILE = REAL_CATALOGUE_FILE;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.CATALOGUE_FILE;
    else process.env.CATALOGUE_FILE = before;
  });

  it.each(real.map((c) => [c.key, c] as const))('%s: its facts, its image and its page', async (_key, { code: deckCode }) => {
    const url = urlOf(deckCode);
    const host = { host: 'decks.example' };
    const facts = await inProcess(`/api/v1/codes/${url}`, host);
    expect(facts.status).toBe(200);
    const { data } = facts.body;
    expect(data.cards.map((c: { card_id: string }) => c.card_id).sort()).toEqual(
      parseDeckCode(deckCode)
        .cards.map((c) => c.card_id)
        .sort(),
    );
    for (const c of data.cards) expect(c.name).toBe(catalogue?.get(c.card_id)?.name ?? null);
    // Valid, or invalid exactly for the ids the catalogue lacks (as test/reference/real-decks.test.ts finds).
    const unknown = data.cards.filter((c: { name: string | null }) => c.name === null).length;
    expect(data.legality.valid).toBe(unknown === 0 && data.cards.length > 0);
    const image = await inProcess(`/api/v1/codes/${url}/image.png`, host);
    expect(image.status).toBe(200);
    expectDrawn(image.bytes);
    const page = await inProcess(`/c/${url}`, host);
    expect(page.status).toBe(200);
    const { result } = await ogs({ html: page.text });
    expect(result.ogImage?.[0]?.url).toBe(data.links.preview);
    for (const link of [data.links.image, data.links.preview])
      expect(new URL(link).host + new URL(link).pathname).toBe(`decks.example/api/v1/codes/${url}/image.png`);
    // Its %% form: 308 to the same URL form.
    const moved = await inProcess(`/api/v1/codes/${encodeURIComponent(deckCode)}`, host);
    expect([moved.status, moved.headers.get('location')]).toEqual([308, `/api/v1/codes/${url}`]);
  });

  it('?lang=de with the English-only real catalogue: German labels and faction names, English card names, and Content-Language says both (contract §12.5)', async () => {
    for (const { key, code: deckCode } of real) {
      const url = urlOf(deckCode);
      const deck = parseDeckCode(deckCode);
      const facts = await inProcess(`/api/v1/codes/${url}?lang=de`);
      expect([key, facts.status, facts.headers.get('content-language'), facts.body.data.name]).toEqual([
        key,
        200,
        'de, en',
        `${factionName(deck.main, 'de')} / ${factionName(deck.ally, 'de')}`,
      ]);
      for (const c of facts.body.data.cards) expect([key, c.name]).toEqual([key, catalogue?.get(c.card_id)?.name ?? null]);
      const page = await inProcess(`/c/${url}?lang=de`);
      expect([key, page.headers.get('content-language'), page.text.includes('<html lang="de">')]).toEqual([key, 'de, en', true]);
      expect([key, page.text.includes(escapeMarkup(labelsFor('de').cardsByKredits))]).toEqual([key, true]);
    }
  });

  const storage = realCodes().filter((c) => c.format === 'client-storage');
  it.each(storage.map((c) => [c.key, c] as const))(
    "%s (the client's storage form): its canonical code's facts",
    async (_key, { code: deckCode }) => {
      const url = urlOf(deckCode);
      expect(url).toBe(urlOf(deckCode.slice(0, deckCode.indexOf('~'))));
      const moved = await inProcess(`/api/v1/codes/${encodeURIComponent(deckCode)}`);
      expect([moved.status, moved.headers.get('location')]).toEqual([308, `/api/v1/codes/${url}`]);
      const facts = await inProcess(`/api/v1/codes/${url}`);
      const pasted = await inFunctionReply('POST', '/api/v1/codes', { 'content-type': 'text/plain' }, Buffer.from(deckCode));
      expect([pasted.status, pasted.body.data]).toEqual([200, facts.body.data]);
      expect(facts.body.data.cards.length).toBeGreaterThan(0);
    },
  );
});
