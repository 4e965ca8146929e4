/**
 * A player's own cards over HTTP (contract §12.3), on a runtime of its own serving the real catalogue of ../shared
 * named in the game's 12 languages (named-catalogue.ts: German as the KARDS GraphQL stand-in names it): the collection
 * PUT as JSON and as a German text export is the same collection; what each of the 25 real share codes still needs
 * of it, recounted here; exactly held is buildable, a copy fewer is missing 1 (by code and by share slug); PATCH adds
 * and removes, concurrent PATCHes all land; If-Match, scopes, another account, bad input — each its answer.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { compareBase62 } from '#rules/base62.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { KARDS_LANGUAGES } from '#rules/kards-graphql.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { call, createDeck, details, newOwner, type Owner } from '../support/api.ts';
import { namedRealCatalogue, nameIn } from '../support/named-catalogue.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { hasRealCatalogue, hasRealCodes, realCodes } from '../support/shared.ts';

const share = realCodes().filter((c) => c.format === 'share');
let runtime: OwnRuntime | undefined;
let catalogue: Catalogue;
let file: string;

beforeAll(async () => {
  if (!hasRealCatalogue || !hasRealCodes) return;
  ({ file, catalogue } = namedRealCatalogue());
  runtime = await ownRuntime('collection', { CATALOGUE_FILE: file });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  if (file) rmSync(dirname(file), { recursive: true, force: true });
});

const path = (o: Owner) => `/api/v1/users/${o.userId}/collection`;
const put = (o: Owner, body: unknown, headers: Record<string, string> = {}) => call('PUT', path(o), { key: o.key, body, headers });
const patch = (o: Owner, body: unknown, headers: Record<string, string> = {}) => call('PATCH', path(o), { key: o.key, body, headers });
const get = (o: Owner) => call('GET', path(o), { key: o.key });
const missing = (o: Owner, query: string) => call('GET', `${path(o)}/missing?${query}`, { key: o.key });
type Counts = Record<string, number>;

describe.skipIf(!hasRealCatalogue || !hasRealCodes)('a player’s own cards, over HTTP with the real catalogue', () => {
  /** The real decks all of whose cards the catalogue knows (a collection holds only those). */
  const known = () => share.filter((c) => c.cards.length > 0 && c.cards.every((card) => catalogue.get(card.code)));

  it('a collection PUT as JSON and as German text exports is the same collection; GET answers it with its ETag', async () => {
    const [byJson, byText] = await Promise.all([newOwner(), newOwner()]);
    const decks = known().map((c) => parseDeckCode(c.code));
    expect(decks.length).toBeGreaterThanOrEqual(3);
    const summed: Counts = {};
    for (const d of decks) for (const { card_id, count } of d.cards) summed[card_id] = (summed[card_id] ?? 0) + count;
    // The German exports as the service writes them, one after another.
    const texts: string[] = [];
    for (const d of decks) {
      const r = await fetch(`${runtime?.baseUrl}/api/v1/codes/${urlCodeOf(d)}/deck.txt?lang=de`);
      expect(r.status).toBe(200);
      texts.push(await r.text());
    }
    const text = texts.join('\n');
    // The German names are in it (the stand-in's), not the English ones.
    const first = catalogue.get(decks[0]?.cards[0]?.card_id as string);
    expect(text).toContain(nameIn(first?.name as string, 'de'));

    const a = await put(byJson, { cards: summed });
    const b = await put(byText, { text });
    expect([a.status, b.status]).toEqual([200, 200]);
    const [ga, gb] = [await get(byJson), await get(byText)];
    expect(ga.body.data.cards).toEqual(summed);
    expect(gb.body.data.cards).toEqual(ga.body.data.cards);
    expect(ga.body.data).toMatchObject({ version: 1, distinct: Object.keys(summed).length });
    expect(ga.body.data.copies).toBe(Object.values(summed).reduce((n, c) => n + c, 0));
    expect(ga.headers.get('etag')).toBe('"1"');
    // An account that never kept one: empty, version 0.
    const none = await newOwner();
    expect((await get(none)).body.data).toEqual({ cards: {}, copies: 0, distinct: 0, version: 0, updated_at: null });
  });

  it('what each of the 25 real share codes still needs, recounted here (cards, by rarity, by nation), named in the reader’s language', async () => {
    const o = await newOwner();
    // The collection: the known real decks' cards, a copy fewer of each of the first one's.
    const owned: Counts = {};
    const decks = known();
    for (const c of decks) for (const card of c.cards) owned[card.code] = (owned[card.code] ?? 0) + card.copies;
    for (const card of (decks[0] as (typeof decks)[number]).cards) owned[card.code] = (owned[card.code] as number) - 1;
    for (const [id, n] of Object.entries(owned)) if (n === 0) delete owned[id];
    expect((await put(o, { cards: owned })).status).toBe(200);
    expect(share.length).toBe(25);
    for (const real of share) {
      const deck = parseDeckCode(real.code);
      const r = await missing(o, `code=${encodeURIComponent(urlCodeOf(deck))}&lang=de`);
      expect([real.key, r.status]).toEqual([real.key, 200]);
      const expected = real.cards.map((c) => ({ card_id: c.code, count: c.copies - (owned[c.code] ?? 0) })).filter((c) => c.count > 0);
      const byRarity: Counts = { standard: 0, limited: 0, special: 0, elite: 0 };
      const byNation: Counts = {};
      for (const c of expected) {
        const card = catalogue.get(c.card_id);
        if (!card) continue;
        byRarity[card.rarity] = (byRarity[card.rarity] ?? 0) + c.count;
        byNation[card.faction] = (byNation[card.faction] ?? 0) + c.count;
      }
      const data = r.body.data;
      // In the code's own card order (its canonical one: by card_id in base-62 order, as docs/api.md says).
      const order = deck.cards.map((c) => c.card_id);
      expect(order).toEqual([...order].sort(compareBase62));
      expected.sort((a, b) => order.indexOf(a.card_id) - order.indexOf(b.card_id));
      expect(
        data.cards.map((c: { card_id: string; count: number }) => [c.card_id, c.count]),
        real.key,
      ).toEqual(expected.map((c) => [c.card_id, c.count]));
      expect(data.by_rarity, real.key).toEqual(byRarity);
      expect(data.by_nation, real.key).toEqual(byNation);
      expect([data.total, data.buildable, data.deck_code]).toEqual([
        expected.reduce((n, c) => n + c.count, 0),
        expected.length === 0,
        encodeDeckCode(deck),
      ]);
      // Named in German where the catalogue knows the card (the stand-in's names), null where it does not.
      for (const c of data.cards) {
        const card = catalogue.get(c.card_id);
        expect(c.name).toBe(card ? nameIn(card.name, 'de') : null);
      }
      expect(r.headers.get('content-language')).toBe('de');
    }
  });

  it('a deck held exactly is buildable and one copy fewer is missing 1 — by its %% code, its text and its share slug', async () => {
    const o = await newOwner();
    const real = known()[0] as (typeof share)[number];
    const deck = parseDeckCode(real.code);
    const exact = Object.fromEntries(deck.cards.map((c) => [c.card_id, c.count]));
    expect((await put(o, { cards: exact })).status).toBe(200);
    const saved = await createDeck(o, { deck_code: real.code, visibility: 'unlisted' });
    const text = await (await fetch(`${runtime?.baseUrl}/api/v1/codes/${urlCodeOf(deck)}/deck.txt?lang=ja`)).text();
    const queries = [`code=${encodeURIComponent(real.code)}`, `code=${encodeURIComponent(text)}`, `slug=${saved.body.data.share_slug}`];
    for (const q of queries) expect((await missing(o, q)).body.data).toMatchObject({ buildable: true, total: 0, cards: [] });
    const first = deck.cards[0] as { card_id: string; count: number };
    const fewer = await patch(o, { remove: { [first.card_id]: 1 } });
    expect([fewer.status, fewer.body.data.version]).toEqual([200, 2]);
    for (const q of queries)
      expect((await missing(o, q)).body.data, q).toMatchObject({
        buildable: false,
        total: 1,
        cards: [{ card_id: first.card_id, count: 1 }],
      });
  });

  it('PATCH adds and removes (removing more than owned leaves none); ten at once all land; If-Match an old version is 412', async () => {
    const o = await newOwner();
    const [x, y] = (known()[0] as (typeof share)[number]).cards.map((c) => c.code) as [string, string];
    expect((await put(o, { cards: { [x]: 2 } })).status).toBe(200);
    const both = await patch(o, { add: { [x]: 1, [y]: 3 }, remove: { [y]: 1 } });
    expect(both.body.data.cards).toEqual({ [x]: 3, [y]: 2 });
    expect((await patch(o, { remove: { [y]: 9 } })).body.data.cards).toEqual({ [x]: 3 });
    const at = (await get(o)).body.data.version as number;
    const answers = await Promise.all(Array.from({ length: 10 }, () => patch(o, { add: { [x]: 1 } })));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const after = (await get(o)).body.data;
    expect([after.cards[x], after.version]).toEqual([13, at + 10]);
    const stale = await patch(o, { add: { [x]: 1 } }, { 'if-match': `"${at}"` });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'precondition_failed']);
    const fresh = await patch(o, { add: { [x]: 1 } }, { 'if-match': `"${after.version}"` });
    expect([fresh.status, fresh.headers.get('etag')]).toEqual([200, `"${after.version + 1}"`]);
    // Past 99 copies is refused, and nothing is written.
    const over = await patch(o, { add: { [x]: 99 } });
    expect([over.status, details(over)]).toEqual([422, [[`add.${x}`, 'too_many']]]);
    expect((await get(o)).body.data.version).toBe(after.version + 1);
  });

  it('bad input: each its 422 naming where; no deck named, 400; an unknown slug, 404; a key without the scope, or of another account, 403', async () => {
    const o = await newOwner();
    const id = known()[0]?.cards[0]?.code as string;
    const derived = catalogue.cards.find((c) => c.derived && c.card_id.length === 2);
    const hq = catalogue.cards.find((c) => c.type === 'headquarters' && c.card_id.length === 2);
    const cases: [unknown, [string, string][]][] = [
      [{ cards: { zz: 1 } }, [['cards.zz', 'unknown_card']]],
      [{ cards: { toolong: 1 } }, [['cards.toolong', 'invalid_value']]],
      [{ cards: { [id]: 100 } }, [[`cards.${id}`, 'invalid_value']]],
      [{ cards: { [id]: 1.5 } }, [[`cards.${id}`, 'invalid_value']]],
      [{ text: '2x No Such Card' }, [['text', 'invalid_value']]],
      [{ cards: {}, text: '' }, [['', 'invalid_value']]],
      [{}, [['', 'invalid_value']]],
      [{ cards: [] }, [['cards', 'invalid_type']]],
      [{ cards: {}, also: 1 }, [['also', 'unknown_field']]],
    ];
    if (derived) cases.push([{ cards: { [derived.card_id]: 1 } }, [[`cards.${derived.card_id}`, 'derived_card']]]);
    if (hq) cases.push([{ cards: { [hq.card_id]: 1 } }, [[`cards.${hq.card_id}`, 'headquarters_card']]]);
    for (const [body, expected] of cases) {
      const r = await put(o, body);
      expect([JSON.stringify(body), r.status, details(r)]).toEqual([JSON.stringify(body), 422, expected]);
    }
    const line = await put(o, { text: 'Deck\nMajor power: germany\n1x Nobody Has This Card' });
    expect(line.body.error.details[0].message).toMatch(/^line 3: /);
    expect((await get(o)).body.data.version).toBe(0);

    expect((await missing(o, '')).status).toBe(400);
    expect((await missing(o, `code=x&slug=AAAAAAAAAAAA`)).status).toBe(400);
    expect((await missing(o, 'slug=AAAAAAAAAAAA')).body.error.code).toBe('deck_not_found');
    const unreadable = await missing(o, 'code=%25%25nonsense');
    expect([unreadable.status, details(unreadable)]).toEqual([422, [['code', 'invalid_deck_code']]]);

    const other = await newOwner();
    const mismatch = await call('GET', path(other), { key: o.key });
    expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'user_mismatch']);
    const reader = await issueKey(o.userId, ['collection:read']);
    const decksOnly = await issueKey(
      o.userId,
      SCOPES.filter((s) => !s.startsWith('collection:')),
    );
    expect((await call('GET', path(o), { key: reader.apiKey })).status).toBe(200);
    const cannotWrite = await call('PUT', path(o), { key: reader.apiKey, body: { cards: {} } });
    expect([cannotWrite.status, cannotWrite.body.error.code]).toEqual([403, 'insufficient_scope']);
    const cannotRead = await call('GET', path(o), { key: decksOnly.apiKey });
    expect([cannotRead.status, cannotRead.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect((await call('GET', path(o))).status).toBe(401);
  });

  it('the export carries the collection for a key with collection:read, and says when it leaves it out', async () => {
    const o = await newOwner();
    const id = known()[0]?.cards[0]?.code as string;
    expect((await put(o, { cards: { [id]: 5 } })).status).toBe(200);
    const exported = await call('GET', `/api/v1/users/${o.userId}/export`, { key: o.key });
    expect([exported.body.data.collection, exported.body.meta.left_out]).toEqual([{ [id]: 5 }, []]);
    // A key that may read decks but not the collection (its own route answers it 403) exports no collection.
    const decksOnly = await issueKey(o.userId, ['decks:read']);
    expect((await call('GET', path(o), { key: decksOnly.apiKey })).status).toBe(403);
    const partial = await call('GET', `/api/v1/users/${o.userId}/export`, { key: decksOnly.apiKey });
    expect(partial.status).toBe(200);
    expect(partial.body.data.collection).toBeNull();
    expect(partial.body.meta.left_out).toEqual([{ field: 'collection', needs_scope: 'collection:read' }]);
    expect(JSON.stringify(partial.body)).not.toContain(`"${id}":5`);
  });

  it('a hostile first line never empties a collection: 422 naming the line, nothing written; a no-op keeps the version and ETag', async () => {
    const o = await newOwner();
    const [x, y] = (known()[0] as (typeof share)[number]).cards.map((c) => c.code) as [string, string];
    const name = (catalogue.get(x) as { name: string }).name;
    const held = await put(o, { cards: { [x]: 5, [y]: 3 } });
    expect(held.status).toBe(200);
    const before = (await get(o)).body.data;
    const firsts = ['1000x', '-1x', '1.5x', '1e309x', '\uff12x', 'NaNx'].map((n) => `${n} ${name}`);
    // The export's own lines that say nothing the game writes (a hostile review's finds): refused, not read past.
    for (const first of [...firsts, 'hello world', '%%hello world', 'Major power: banana', 'Ally: hello world'])
      for (const text of [first, `${first}\n2x ${name}`]) {
        for (const r of [await put(o, { text }), await patch(o, { add_text: text }), await patch(o, { remove_text: text })]) {
          expect([text, r.status, r.body.error?.details?.[0]?.message?.slice(0, 7)]).toEqual([text, 422, 'line 1:']);
        }
      }
    expect((await get(o)).body.data).toEqual(before);
    // A write that changes nothing: the same version and ETag, and an If-Match of them still holds.
    const etag = `"${before.version}"`;
    for (const body of [{ remove: { zz: 1 } }, { add: {} }, { remove: { [known()[1]?.cards.at(-1)?.code as string]: 1 } }]) {
      const r = await patch(o, body, { 'if-match': etag });
      if (r.status === 422) continue; // a card no collection may hold (zz): refused, not a no-op
      expect([JSON.stringify(body), r.status, r.headers.get('etag'), r.body.data.version]).toEqual([
        JSON.stringify(body),
        200,
        etag,
        before.version,
      ]);
    }
    const same = await put(o, { cards: { [y]: 3, [x]: 5 } }, { 'if-match': etag });
    expect([same.status, same.headers.get('etag')]).toEqual([200, etag]);
    expect((await get(o)).body.data).toEqual(before);
  });

  it('a fuzz of lines in every served language: a collection changes only by a 2xx whose answer is what it holds', async () => {
    const o = await newOwner();
    const cards = known()
      .flatMap((c) => c.cards.map((card) => card.code))
      .slice(0, 12);
    expect((await put(o, { cards: Object.fromEntries(cards.map((id) => [id, 2])) })).status).toBe(200);
    const lines = fc.sample(
      fc.record({
        language: fc.constantFrom(...SERVED_LANGUAGES.map((l) => l.tag).filter((l) => KARDS_LANGUAGES.includes(l))),
        card: fc.constantFrom(...cards),
        count: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('1', '2', '3', '0') },
          { weight: 2, arbitrary: fc.constantFrom('99', '100', '-1', '1.5', '1e309', '\uff11', '0x1', 'NaN', '') },
          { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
        ),
        mark: fc.constantFrom('x ', 'X ', '× ', ' x ', 'x', ''),
        cut: fc.constantFrom(0, 0, 0, 1, 3),
        junk: fc.oneof(
          { weight: 4, arbitrary: fc.constant('') },
          { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
          { weight: 1, arbitrary: fc.constantFrom('\ud800', '\u0000', '\u202e', '  ') },
        ),
        first: fc.boolean(),
        how: fc.constantFrom('put', 'add_text', 'remove_text'),
      }),
      { numRuns: 60, seed: 20261129 },
    );
    const seen = new Set<number>();
    for (const l of lines) {
      const cardName = nameIn((catalogue.get(l.card) as { name: string }).name, l.language);
      const line = `${l.count}${l.mark}${cardName.slice(0, cardName.length - l.cut)}${l.junk}`;
      const text = l.first ? line : `2x ${nameIn((catalogue.get(cards[0] as string) as { name: string }).name, l.language)}\n${line}`;
      const before = (await get(o)).body.data;
      const r = l.how === 'put' ? await put(o, { text }) : await patch(o, { [l.how]: text });
      const after = (await get(o)).body.data;
      const what = JSON.stringify({ text, how: l.how, status: r.status });
      seen.add(r.status);
      if (r.status !== 200) {
        expect([what, r.status, after]).toEqual([what, 422, before]);
        continue;
      }
      // A 200 says what the collection now holds; its version moved exactly when its cards did.
      expect([what, r.body.data.cards, r.body.data.version]).toEqual([what, after.cards, after.version]);
      const changed = JSON.stringify(after.cards) !== JSON.stringify(before.cards);
      expect([what, after.version]).toEqual([what, changed ? before.version + 1 : before.version]);
      // Put the library back where the next line expects it.
      if (l.how === 'put') await put(o, { cards: Object.fromEntries(cards.map((id) => [id, 2])) });
    }
    // The sample reaches both ways: lines read and lines refused.
    expect([...seen].sort()).toEqual([200, 422]);
  });
});
