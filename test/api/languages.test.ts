/**
 * Every language of the game, end to end (contract §11.3): a runtime of its own serving a catalogue whose
 * cards are named in all 12 of the game's languages as the GraphQL stand-in names them (test/support/
 * kards-standin.ts: Japanese in katakana, Traditional Chinese in its own characters, …). `?lang=ja`,
 * `?lang=zh-Hant` and the Accept-Language forms (`zh-TW`, `zh-HK` → zh-Hant; `zh-CN` → zh) name the cards in
 * that language on /api/v1/cards, a share page and a code's page, and both images answer in it
 * (Content-Language, an ETag of their own). That the images draw those names without a box glyph is the fit
 * test's (test/reference/deck-image-fit.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { KARDS_LANGUAGES, KARDS_LOCALES } from '#rules/kards-graphql.ts';
import { LABELS, labelsFor } from '#rules/labels.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { escapeMarkup } from '#share/markup.ts';
import { code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { standInTitles } from '../support/kards-standin.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';

const demo = demoCatalogue();
/** A card's name in a language, as the stand-in names it. */
const nameIn = (english: string, language: string) => standInTitles(english)[KARDS_LOCALES[language] as string] as string;
const dir = mkdtempSync(join(tmpdir(), 'deck-library-languages-'));
let runtime: OwnRuntime | undefined;
let owner: Owner;

beforeAll(async () => {
  const file = join(dir, 'cards.json');
  writeFileSync(
    file,
    JSON.stringify(
      demo.cards.map(({ names: _names, ...card }) => ({
        ...card,
        names: Object.fromEntries(KARDS_LANGUAGES.filter((l) => l !== 'en').map((l) => [l, nameIn(card.name, l)])),
      })),
    ),
  );
  runtime = await ownRuntime('languages', { CATALOGUE_FILE: file });
  owner = await newOwner();
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${runtime?.baseUrl}${path}`, { headers });
const VOLGA = 'Volga Grey Rifles';

describe("every language of the game, end to end (a catalogue named in all 12 of the game's languages)", () => {
  it('a card: ?lang=ja and ?lang=zh-Hant name it in Japanese and Traditional Chinese; zh-TW and zh-HK are Traditional, zh-CN Simplified', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['?lang=ja', {}, 'ja'],
      ['?lang=zh-Hant', {}, 'zh-Hant'],
      ['?lang=zh-TW', {}, 'zh-Hant'],
      ['', { 'accept-language': 'ja-JP,ja;q=0.9' }, 'ja'],
      ['', { 'accept-language': 'zh-TW,zh;q=0.9' }, 'zh-Hant'],
      ['', { 'accept-language': 'zh-HK' }, 'zh-Hant'],
      ['', { 'accept-language': 'zh-CN,zh;q=0.9' }, 'zh'],
      ['?lang=ko', {}, 'ko'],
    ];
    const tags = new Set<string>();
    for (const [query, headers, language] of cases) {
      const res = await get(`/api/v1/cards/2B${query}`, headers);
      const body = (await res.json()) as { data: { name: string } };
      expect([query, headers, body.data.name, res.headers.get('content-language')]).toEqual([
        query,
        headers,
        nameIn(VOLGA, language),
        language,
      ]);
      tags.add(String(res.headers.get('etag')));
    }
    // An ETag a language: ja, zh-Hant, zh, ko.
    expect(tags.size).toBe(4);
    // The list's q matches the language's names too.
    const list = (await (await get(`/api/v1/cards?q=${encodeURIComponent(nameIn(VOLGA, 'ja'))}&lang=ja`)).json()) as {
      data: { name: string }[];
    };
    expect(list.data.map((c) => c.name)).toEqual([nameIn(VOLGA, 'ja')]);
  });

  it("a share page and a code's page in Japanese and Traditional Chinese; both images answer in the language asked, each its own copy", async () => {
    const deckCode = code('soviet', 'usa', 1);
    const deck = (await createDeck(owner, { visibility: 'public', deck_code: deckCode })).body.data;
    const first = demo.get(parseDeckCode(deckCode).cards[0]?.card_id ?? '');
    expect(first).toBeDefined();
    const english = first?.name as string;
    const urlCode = urlCodeOf(parseDeckCode(deckCode));
    for (const [language, ask] of [
      ['ja', { query: '?lang=ja', headers: {} }],
      ['zh-Hant', { query: '', headers: { 'accept-language': 'zh-TW' } }],
    ] as const) {
      for (const path of [`/d/${deck.share_slug}`, `/c/${urlCode}`]) {
        const page = await get(`${path}${ask.query}`, ask.headers);
        const html = await page.text();
        expect([path, page.status, html.includes(`<html lang="${language}">`)]).toEqual([path, 200, true]);
        expect([path, language, html.includes(escapeMarkup(nameIn(english, language)))]).toEqual([path, language, true]);
      }
      for (const path of [`/api/v1/decks/${deck.share_slug}/image.png`, `/api/v1/codes/${urlCode}/image.png`]) {
        const [image, plain] = [await get(`${path}${ask.query}`, ask.headers), await get(path)];
        expect([path, image.status, image.headers.get('content-type'), image.headers.get('content-language')]).toEqual([
          path,
          200,
          'image/png',
          language,
        ]);
        expect(image.headers.get('etag')).not.toBe(plain.headers.get('etag'));
        expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(await plain.arrayBuffer()))).toBe(false);
      }
    }
  }, 60_000);

  it('GET /api/v1/languages lists the 12 with their names in themselves; each, asked for, gives a page whose labels are its own', async () => {
    const r = await get('/api/v1/languages');
    expect(r.status).toBe(200);
    const { data } = (await r.json()) as { data: { tag: string; name: string; card_names: string }[] };
    // A catalogue named in all 12: each language's card names in it.
    expect(data).toEqual(SERVED_LANGUAGES.map(({ tag, name }) => ({ tag, name, card_names: tag })));
    expect(data.map((l) => l.tag).sort()).toEqual(Object.keys(LABELS).sort());
    const etag = r.headers.get('etag') as string;
    expect((await get('/api/v1/languages', { 'if-none-match': etag })).status).toBe(304);
    const urlCode = urlCodeOf(parseDeckCode(code('soviet', 'usa', 2)));
    for (const { tag } of data) {
      const html = await (await get(`/c/${urlCode}?lang=${tag}`)).text();
      expect([tag, html.includes(`<html lang="${tag}">`), html.includes(escapeMarkup(labelsFor(tag).cardsByKredits))]).toEqual([
        tag,
        true,
        true,
      ]);
    }
  });
});
