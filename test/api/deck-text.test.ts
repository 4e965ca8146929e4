/**
 * The game's text export through the API (contract §11.3): GET /api/v1/codes/{code}/deck.txt writes it (in the
 * language asked, cached as the code's image, 308 from another spelling), POST /api/v1/codes reads it back as
 * text/plain (or a code, or a link) and answers the code's facts, a create takes it as deck_text. Over HTTP on
 * the run's runtime (the demo catalogue: English and German); then every real code of ../shared in each of the
 * 12 languages through the two functions, with the real catalogue named in all of them (named-catalogue.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardTotal, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { readDeckText } from '#rules/deck-text.ts';
import { factionName } from '#rules/faction-names.ts';
import { KARDS_LANGUAGES } from '#rules/kards-graphql.ts';
import { LIMITS } from '#rules/limits.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { baseUrl, call, code, demo, details, newOwner } from '../support/api.ts';
import { inFunction } from '../support/in-function.ts';
import { namedRealCatalogue, nameIn } from '../support/named-catalogue.ts';
import { hasRealCatalogue, hasRealCodes, realCodes } from '../support/shared.ts';

const legal = code('soviet', 'usa', 3);
const url = urlCodeOf(parseDeckCode(legal));
const postText = (text: string, contentType = 'text/plain; charset=utf-8', query = '') =>
  fetch(`${baseUrl()}/api/v1/codes${query}`, { method: 'POST', headers: { 'content-type': contentType }, body: text });
// biome-ignore lint/suspicious/noExplicitAny: an answer's JSON, read by the test
const json = async (r: Response): Promise<any> => r.json();

describe('GET /api/v1/codes/{code}/deck.txt and POST /api/v1/codes, over HTTP', () => {
  it('writes the export in the language asked: name line, Major power, Ally, a header a nation, Nx (kK) NAME, the code last', async () => {
    const en = await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt`);
    expect([en.status, en.headers.get('content-type'), en.headers.get('content-language')]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'en',
    ]);
    // Minutes, as a code's facts: the names follow the catalogue, which a refresh changes with no deploy.
    expect(en.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=3600');
    const text = await en.text();
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual(['Soviet Union / United States', 'Major power: soviet', 'Ally: usa', 'soviet:']);
    expect(lines.at(-1)).toBe(encodeDeckCode(parseDeckCode(legal)));
    const cardLines = lines.filter((l) => /^\dx \(\d+K\) /.test(l));
    expect(cardLines.reduce((n, l) => n + Number(l[0]), 0)).toBe(cardTotal(parseDeckCode(legal).cards));
    const de = await (await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt?lang=de`)).text();
    const card = demo.get(parseDeckCode(legal).cards[0]?.card_id as string);
    expect(de).toContain(card?.names?.de as string);
    expect(de.split('\n')[0]).toBe('Sowjetunion / Vereinigte Staaten');
    // If-None-Match: 304; another spelling: 308 to the canonical URL form, query kept.
    const etag = en.headers.get('etag') as string;
    expect((await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const moved = await fetch(`${baseUrl()}/api/v1/codes/${encodeURIComponent(legal)}/deck.txt?lang=de`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([308, `/api/v1/codes/${url}/deck.txt?lang=de`]);
  });

  it("POST the export (in English, in German, re-cased): the code's facts, as GET answers them", async () => {
    const facts = (await call('GET', `/api/v1/codes/${url}?lang=de`)).body.data;
    for (const lang of ['en', 'de']) {
      const text = await (await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt?lang=${lang}`)).text();
      // As written; re-cased (the code line aside: its ids are case-sensitive); without its code line.
      const upper = text
        .split('\n')
        .map((l) => (l.startsWith('%%') ? l : l.toUpperCase()))
        .join('\n');
      for (const sent of [text, upper, text.replace(/\n%%.*\n/, '\n')]) {
        const r = await postText(sent, 'text/plain', '?lang=de');
        const body = await json(r);
        expect([lang, r.status, body.error]).toEqual([lang, 200, undefined]);
        expect(body.data).toEqual(facts);
      }
    }
    // A code and a kards.com link are read too.
    for (const sent of [legal, `https://www.kards.com/decks/deck-builder?hash=${encodeURIComponent(legal)}`]) {
      const r = await postText(sent, 'text/plain', '?lang=de');
      expect((await json(r)).data.deck_code).toBe(facts.deck_code);
    }
  });

  it('what cannot be read: 422 naming the line; JSON or no body: 415; not UTF-8: 400; over 128 KiB: 413', async () => {
    const text = await (await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt`)).text();
    const broken = text.replace(/^(\dx \(\d+K\) ).*$/m, '$1No Such Card');
    const r = await postText(broken);
    const body = await json(r);
    expect([r.status, body.error.code, body.error.details[0].path, body.error.details[0].code]).toEqual([
      422,
      'validation_failed',
      'body',
      'invalid_deck_code',
    ]);
    expect(body.error.details[0].message).toMatch(/^line 5: no card is named "No Such Card"/);
    expect((await postText(text, 'application/json')).status).toBe(415);
    expect((await postText(text, 'text/plain; charset=latin1')).status).toBe(415);
    const latin1 = await fetch(`${baseUrl()}/api/v1/codes`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from([0x32, 0x78, 0x20, 0xff, 0xfe]),
    });
    expect([latin1.status, (await json(latin1)).error.code]).toEqual([400, 'invalid_parameter']);
    expect((await postText('x'.repeat(129 * 1024))).status).toBe(413);
  });

  // Issue 53: such a text answered 200 with a code whose page, image and facts links answered 400.
  it("a text whose deck's code is longer than the code routes take: 422 with their own words, and the routes say the same", async () => {
    const text = [
      'Major power: soviet',
      'Ally: usa',
      ...demo.cards.filter((c) => !c.derived && c.type !== 'headquarters').map((c) => `1x (${c.kredits}K) ${c.name}`),
    ].join('\n');
    const deck = readDeckText(text, demo);
    const canonical = urlCodeOf(deck);
    expect(canonical.length).toBeGreaterThan(LIMITS.deckCodeChars);
    const said = `a deck code has at most ${LIMITS.deckCodeChars} characters; this one has ${canonical.length}`;
    const r = await postText(text);
    const body = await json(r);
    expect([r.status, body.error.code, body.error.details[0].message]).toEqual([422, 'validation_failed', `the text's deck: ${said}`]);
    const facts = await call('GET', `/api/v1/codes/${canonical}`);
    expect([facts.status, facts.body.error.message]).toEqual([400, `code: ${said}`]);
  });

  it('a create takes deck_text in place of deck_code; both, or a text naming no card, is 422', async () => {
    const owner = await newOwner();
    const text = await (await fetch(`${baseUrl()}/api/v1/codes/${url}/deck.txt?lang=de`)).text();
    const made = await call('POST', owner.decks, { key: owner.key, body: { deck_text: text, guide: { system: 'From text' } } });
    expect(made.status).toBe(201);
    expect(made.body.data.deck_code).toBe(encodeDeckCode(parseDeckCode(legal)));
    const both = await call('POST', owner.decks, { key: owner.key, body: { deck_text: text, deck_code: legal, guide: { system: 'x' } } });
    expect([both.status, details(both)]).toEqual([422, [['deck_text', 'invalid_value']]]);
    const none = await call('POST', owner.decks, { key: owner.key, body: { deck_text: 'Deck\n2x (1K) Nothing', guide: { system: 'x' } } });
    expect([none.status, details(none)]).toEqual([422, [['deck_text', 'invalid_deck_code']]]);
    const neither = await call('POST', owner.decks, { key: owner.key, body: { guide: { system: 'x' } } });
    expect([neither.status, details(neither)]).toEqual([422, [['deck_code', 'required']]]);
  });
});

describe.skipIf(!hasRealCodes || !hasRealCatalogue)('every real code, in every language, through the two functions', () => {
  const named = hasRealCatalogue ? namedRealCatalogue() : undefined;
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.CATALOGUE_FILE;
    process.env.CATALOGUE_FILE = named?.file;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.CATALOGUE_FILE;
    else process.env.CATALOGUE_FILE = before;
  });

  it("?lang=de with a catalogue named in all 12: a code's facts wholly German, card names too", async () => {
    for (const { key, code: deckCode } of realCodes().filter((c) => c.format === 'share')) {
      const deck = parseDeckCode(deckCode);
      const got = await inFunction('GET', `/api/v1/codes/${urlCodeOf(deck)}?lang=de`);
      const facts = JSON.parse(String(got.body)).data as { name: string; cards: { card_id: string; name: string | null }[] };
      expect([key, got.headers?.['content-language'], facts.name]).toEqual([
        key,
        'de',
        `${factionName(deck.main, 'de')} / ${factionName(deck.ally, 'de')}`,
      ]);
      for (const c of facts.cards) {
        const english = named?.catalogue.get(c.card_id)?.name;
        expect([key, c.name]).toEqual([key, english === undefined ? null : nameIn(english, 'de')]);
      }
    }
  });

  it('GET deck.txt?lang=X then POST it back — as written, and shuffled, re-cased and in another language: the same code, for each of the 12 languages', async () => {
    // Every share code: the catalogue's unknown cards are written [id] and read back as such.
    const decks = realCodes()
      .filter((c) => c.format === 'share')
      .map((c) => parseDeckCode(c.code));
    expect(decks).toHaveLength(25);
    for (const deck of decks)
      for (const lang of KARDS_LANGUAGES) {
        const got = await inFunction('GET', `/api/v1/codes/${urlCodeOf(deck)}/deck.txt?lang=${lang}`);
        expect([lang, got.statusCode, got.headers?.['content-language']]).toEqual([lang, 200, lang]);
        // Without its %% line: the names alone make the code.
        const text = String(got.body).replace(/\n%%[^\n]*\n/, '\n');
        const back = await inFunction('POST', '/api/v1/codes', { 'content-type': 'text/plain' }, Buffer.from(text));
        expect([lang, back.statusCode, JSON.parse(String(back.body)).data?.deck_code]).toEqual([lang, 200, encodeDeckCode(deck)]);
        // Its lines after the name line in another order, every other one re-cased, each card named in the next language.
        const next = KARDS_LANGUAGES[(KARDS_LANGUAGES.indexOf(lang) + 1) % KARDS_LANGUAGES.length] as string;
        const [name, ...rest] = text.split('\n');
        const mixed = rest
          .map((line) => {
            const card = deck.cards.find((c) => line.endsWith(` ${nameIn(named?.catalogue.get(c.card_id)?.name ?? '\u0000', lang)}`));
            const english = card && named?.catalogue.get(card.card_id)?.name;
            return english ? line.replace(nameIn(english, lang), nameIn(english, next)) : line;
          })
          // (a card written by its id, [3N], keeps its case: ids are case-sensitive)
          .map((line, i) => (line.includes('[') ? line : i % 2 ? line.toUpperCase() : line.toLowerCase()))
          .reverse();
        const shuffled = await inFunction(
          'POST',
          '/api/v1/codes',
          { 'content-type': 'text/plain' },
          Buffer.from([name, ...mixed].join('\n')),
        );
        expect([lang, shuffled.statusCode, JSON.parse(String(shuffled.body)).data?.deck_code]).toEqual([lang, 200, encodeDeckCode(deck)]);
      }
  });
});
