/**
 * The hardening issue's seen failures, each through HTTP on the run's runtime (contract §2, §8.1):
 * built-in property names as members (once 500), arrays as objects, every rule at every level, tags
 * normalised before they are checked, unpaired surrogates and invalid UTF-8, media types as RFC 9110
 * reads them, exact cursors, capped details, numbered pages.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, call, code, createDeck, details, newOwner } from '../support/api.ts';

const owner = await newOwner();
const body = (extra: Record<string, unknown> = {}) => ({ deck_code: code(), guide: { system: 'Tempo' }, ...extra });
/** Sends a body as the exact JSON text given (so `__proto__` is a member, as a client would send it). */
const send = (method: string, path: string, raw: string, headers: Record<string, string> = {}) =>
  call(method, path, { key: owner.key, raw, headers: { 'content-type': 'application/json', ...headers } });
const json = (extra: string) => `{"deck_code":${JSON.stringify(code())},"guide":{"system":"T"},${extra}}`;

const envelope = (r: Awaited<ReturnType<typeof call>>) => {
  expect(r.headers.get('x-request-id')).toBeTruthy();
  expect(r.body.meta).toEqual({ api_version: 'v1', request_id: r.headers.get('x-request-id') });
};

describe('1. built-in property names are unknown fields, never a 500', async () => {
  const deck = (await createDeck(owner)).body.data;
  const routes: [string, string, (member: string) => string][] = [
    ['POST', owner.decks, (m) => json(m)],
    ['POST', `${owner.decks}/validate`, (m) => json(m)],
    ['PATCH', `${owner.decks}/${deck.id}`, (m) => `{${m}}`],
  ];
  it.each(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'])(
    '%s',
    async (name) => {
      for (const [method, path, make] of routes) {
        const r = await send(method, path, make(`${JSON.stringify(name)}:{"a":1}`));
        expect([method, r.status, r.body.error.code, details(r)]).toEqual([method, 422, 'validation_failed', [[name, 'unknown_field']]]);
        envelope(r);
      }
      const nested = await send(
        'POST',
        owner.decks,
        json(`"archive":{${JSON.stringify(name)}:1,"key_components":{"enabled":false,${JSON.stringify(name)}:[]}}`),
      );
      expect(details(nested).sort()).toEqual(
        [
          [`archive.${name}`, 'unknown_field'],
          [`archive.key_components.${name}`, 'unknown_field'],
        ].sort(),
      );
      const replace = await send(
        'POST',
        `${owner.decks}/replace`,
        `{"deck_code":${JSON.stringify(code())},"replacements":[{"remove_card_id":"2B","add_card_id":"2C","count":1,${JSON.stringify(name)}:1}]}`,
      );
      expect(details(replace)).toEqual([[`replacements[0].${name}`, 'unknown_field']]);
      const del = await send('DELETE', `${owner.decks}/${deck.id}`, `{${JSON.stringify(name)}:1}`);
      expect([del.status, details(del)]).toEqual([422, [[name, 'must_be_empty_object']]]);
    },
  );

  it('query and path parameters named like built-ins find nothing inherited', async () => {
    const r = await call('GET', '/api/v1/decks?constructor=1&__proto__=2&toString=3&limit=1');
    expect(r.status).toBe(200);
    for (const path of ['/api/v1/decks/constructor', '/api/v1/decks/__proto__', '/api/v1/cards/constructor', '/api/v1/cards/__proto__']) {
      const miss = await call('GET', path);
      expect([path, miss.status]).toEqual([path, 404]);
    }
    expect((await call('GET', `${owner.decks}/constructor`, { key: owner.key })).status).toBe(404);
  });
});

describe('3. arrays are not objects', () => {
  it.each([
    ['"archive":[]', 'archive'],
    ['"guide":[]', 'guide'],
    ['"archive":{"alternatives":[]}', 'archive.alternatives'],
  ])('%s → invalid_type at %s', async (member, path) => {
    const r = await send(
      'POST',
      owner.decks,
      `{"deck_code":${JSON.stringify(code())},${member}${member.startsWith('"guide"') ? '' : ',"guide":{"system":"T"}'}}`,
    );
    expect([r.status, details(r)]).toEqual([422, [[path, 'invalid_type']]]);
  });

  it('replacements: [[]] is one invalid_type', async () => {
    const r = await call('POST', `${owner.decks}/replace`, { key: owner.key, body: { deck_code: code(), replacements: [[]] } });
    expect(details(r)).toEqual([['replacements[0]', 'invalid_type']]);
  });
});

describe('4. every failing rule at every level', () => {
  it('every unknown guide member; a too-long system does not hide a core card not in the deck', async () => {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: body({ guide: { system: 'x'.repeat(41), core_cards: ['zz'], a: 1, b: 2, c: 3 } }),
    });
    expect(details(r).sort()).toEqual(
      [
        ['guide.a', 'unknown_field'],
        ['guide.b', 'unknown_field'],
        ['guide.c', 'unknown_field'],
        ['guide.system', 'too_long'],
        ['guide.core_cards[0]', 'unknown_card'],
      ].sort(),
    );
  });
});

describe('5. tags are normalised before they are checked', () => {
  it('"İ" × 32 is too long (64 characters lower-cased); a deck read back is written back unchanged', async () => {
    const long = await call('POST', owner.decks, { key: owner.key, body: body({ tags: ['İ'.repeat(32)] }) });
    expect(details(long)).toEqual([['tags[0]', 'too_long']]);
    const made = await createDeck(owner, { tags: ['İ'.repeat(16), 'Cafe\u0301'] });
    const { id, tags, version } = made.body.data;
    expect(tags.every((t: string) => [...t].length <= 32)).toBe(true);
    const again = await call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: { tags }, headers: { 'if-match': `"${version}"` } });
    expect([again.status, again.body.data.tags]).toEqual([200, tags]);
  });
});

describe('6. unpaired surrogates and invalid UTF-8', () => {
  it('a lone surrogate is 422 invalid_value at its path, and never reaches public search', async () => {
    const tag = `lone${Date.now()}`;
    for (const [member, path] of [
      [`"guide":{"system":"Lone\\ud800"}`, 'guide.system'],
      [`"guide":{"system":"T"},"tags":["${tag}","x\\udfff"]`, 'tags[1]'],
    ]) {
      const r = await send('POST', owner.decks, `{"deck_code":${JSON.stringify(code())},"visibility":"public",${member}}`);
      expect([r.status, details(r)]).toEqual([422, [[path, 'invalid_value']]]);
    }
    expect((await call('GET', `/api/v1/decks?tag=${tag}`)).body.data).toEqual([]);
  });

  it('bytes that are not UTF-8 are 400 invalid_json, not replaced', async () => {
    const raw = Buffer.concat([
      Buffer.from(`{"deck_code":${JSON.stringify(code())},"guide":{"system":"T`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}'),
    ]);
    const res = await fetch(`${baseUrl()}${owner.decks}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: raw,
    });
    const r = (await res.json()) as { error: { code: string } };
    expect([res.status, r.error.code]).toEqual([400, 'invalid_json']);
  });
});

describe('6b. query parameters that are not UTF-8 after percent-decoding (contract §10.4)', () => {
  it('a lone surrogate, a broken escape or a byte that is no UTF-8 is 400 invalid_parameter naming it; nothing is replaced', async () => {
    for (const [query, named] of [
      ['q=%ED%A0%80', 'q'], // U+D800, a lone surrogate, as UTF-8 bytes
      ['q=ab%E0%A4', 'q'], // a character cut short
      ['tag=%FF', 'tag'],
      ['q=%zz', 'q'], // a broken escape
      ['limit=5&q=%C3', 'q'],
    ]) {
      const r = await call('GET', `/api/v1/decks?${query}`);
      expect([query, r.status, r.body.error.code]).toEqual([query, 400, 'invalid_parameter']);
      expect(r.body.error.message, query).toContain(named);
    }
    // Percent-encoded UTF-8 is as good as the character itself.
    const ok = await call('GET', `/api/v1/decks?q=${encodeURIComponent('é𝄞')}`);
    expect(ok.status).toBe(200);
    const cards = await call('GET', '/api/v1/cards?q=%ED%B0%80');
    expect([cards.status, cards.body.error.code]).toEqual([400, 'invalid_parameter']);
  });

  it('the name a message echoes is cut at a code point, and shown as it can be: no lone surrogate, no control character', async () => {
    // A name of 39 letters and an emoji (a surrogate pair across the 40th unit), then one of a control character.
    const emoji = `${'a'.repeat(39)}%F0%9F%94%A5`;
    for (const path of ['/api/v1/bulk-data', '/api/v1/decks', '/api/v1/cards'])
      for (const query of [`${emoji}=%ZZ`, `${emoji}%ZZ=1`, 'a%07b=%ZZ']) {
        const r = await call('GET', `${path}?${query}`);
        expect([path, query, r.status]).toEqual([path, query, 400]);
        const message = r.body.error.message as string;
        expect([query, message.isWellFormed(), /[\p{Cc}\p{Cf}]/u.test(message)]).toEqual([query, true, false]);
      }
  });
});

describe('7. media types as RFC 9110 reads them', () => {
  it.each(['Application/JSON', 'application/json ; charset=utf-8', 'APPLICATION/JSON;CHARSET="UTF-8"'])('%s is JSON', async (type) => {
    const r = await send('POST', `${owner.decks}/validate`, JSON.stringify(body()), { 'content-type': type });
    expect(r.status).toBe(200);
  });

  it.each(['application/json; charset=iso-8859-1', 'text/plain', 'application/jsonp'])('%s is 415', async (type) => {
    const r = await send('POST', `${owner.decks}/validate`, JSON.stringify(body()), { 'content-type': type });
    expect([r.status, r.body.error.code]).toEqual([415, 'unsupported_media_type']);
    envelope(r);
  });
});

describe('8. a cursor is accepted only as the exact string issued', () => {
  it('appended characters, padding or a changed letter are 400, on search and on the owner list', async () => {
    const tag = `cur${Date.now()}`;
    for (let i = 0; i < 3; i++) await createDeck(owner, { visibility: 'public', tags: [tag], deck_code: code('soviet', 'usa', i) });
    const search = (await call('GET', `/api/v1/decks?tag=${tag}&limit=1`)).body.meta.next_cursor as string;
    const list = (await call('GET', `${owner.decks}?limit=1`, { key: owner.key })).body.meta.next_cursor as string;
    for (const [path, cursor] of [
      [`/api/v1/decks?tag=${tag}&limit=1`, search],
      [`${owner.decks}?limit=1`, list],
    ] as const) {
      expect((await call('GET', `${path}&cursor=${cursor}`, { key: owner.key })).status).toBe(200);
      for (const bad of [`${cursor}~~`, `${cursor}=`, `${cursor}A`, `=${cursor}`, cursor.replace('.', '..')]) {
        const r = await call('GET', `${path}&cursor=${encodeURIComponent(bad)}`, { key: owner.key });
        expect([bad, r.status, r.body.error.code]).toEqual([bad, 400, 'invalid_parameter']);
      }
    }
  });
});

describe('9. error details are bounded', () => {
  it('10,000 unknown fields: 100 details, details_total 10,000, a small answer', async () => {
    const members = Array.from({ length: 10_000 }, (_, i) => `"f${i}":0`).join(',');
    const r = await send('POST', owner.decks, json(members));
    expect(r.status).toBe(422);
    expect(r.body.error.details).toHaveLength(100);
    expect(r.body.error.details_total).toBe(10_000);
    expect(r.text.length).toBeLessThan(20_000);
  });
});

describe('10. numbered pages reach page × limit ≤ 1,000', () => {
  it.each(['page=201&limit=5', 'page=21&limit=50', 'page=1001'])('%s is 400 naming next_cursor', async (q) => {
    const r = await call('GET', `/api/v1/decks?${q}`);
    expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect(r.body.error.message).toContain('next_cursor');
  });

  it('page=200&limit=5 and page=20&limit=50 are fine', async () => {
    for (const q of ['page=200&limit=5', 'page=20&limit=50']) expect((await call('GET', `/api/v1/decks?${q}`)).status).toBe(200);
  });
});

describe('11. tags and guide.system hold only visible text (contract §9.1)', () => {
  // Control, format (zero-width, bidirectional override), line and paragraph separators, private use, unassigned.
  const INVISIBLE: [string, string][] = [
    ['a zero-width space alone', '\u200b'],
    ['a zero-width space beside a word', 'aggro\u200b'],
    ['a right-to-left override', 'ag\u202egro'],
    ['a zero-width joiner', 'ag\u200dgro'],
    ['a byte order mark inside', 'ag\ufeffgro'],
    ['a line separator inside', 'ag\u2028gro'],
    ['a paragraph separator inside', 'ag\u2029gro'],
    ['a private-use character', 'ag\ue000gro'],
    ['an unassigned code point', 'ag\u0378gro'],
    ['a control character', 'ag\u0007gro'],
  ];

  it.each(INVISIBLE)('%s is 422 invalid_value, in a tag and in guide.system, on create and on PATCH', async (_name, text) => {
    const created = await call('POST', owner.decks, { key: owner.key, body: { deck_code: code(), guide: { system: text }, tags: [text] } });
    expect(created.status).toBe(422);
    expect(details(created)).toEqual([
      ['guide.system', 'invalid_value'],
      ['tags[0]', 'invalid_value'],
    ]);
    const { id } = (await createDeck(owner)).body.data;
    const patched = await call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: { tags: ['fine', text] } });
    expect(details(patched)).toEqual([['tags[1]', 'invalid_value']]);
  });

  it('separators and a byte order mark at the ends are trimmed away: a tag left empty is still `required`', async () => {
    const r = await call('POST', owner.decks, { key: owner.key, body: body({ tags: ['\u2028', '\ufeff \ufeff'] }) });
    expect(details(r)).toEqual([
      ['tags[0]', 'required'],
      ['tags[1]', 'required'],
    ]);
  });

  it('visible text in other scripts, with accents and emoji, is accepted as it is', async () => {
    const tags = ['ägrô', 'ソ連', 'танки', '🔥aggro', 'café'];
    const made = await createDeck(owner, { tags, guide: { system: 'Блиц 🔥' } });
    expect(made.body.data.tags).toEqual(tags);
    expect(made.body.data.guide.system).toBe('Блиц 🔥');
  });

  it('the search tag and q filters refuse the same characters (400 invalid_parameter)', async () => {
    for (const q of ['tag=ag%E2%80%8Bgro', 'q=ag%E2%80%AEgro']) {
      const r = await call('GET', `/api/v1/decks?${q}`);
      expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
    }
  });
});
