/**
 * A property-based fuzz of the whole HTTP surface (contract §2, §8.1): for every route of the route
 * table (and paths no route matches), random and hostile bodies, query strings, headers and path
 * parameters — built-in property names as keys at every level, wrong JSON types everywhere, unicode
 * edge cases (lone surrogates, combining marks, NUL, bytes that are not UTF-8), sizes around each
 * limit. Every answer: never a 5xx; the envelope with its X-Request-Id; a status, and a code for that
 * status, that the contract allows for that route. Bounded by case counts, so it runs in CI.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorsOf } from '#docs/openapi.ts';
import { type ApiRoute, paramNames, ROUTES, type Route } from '#routes';
import { parseDeckCode } from '#rules/deck-code.ts';
import { LIMITS } from '#rules/limits.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { ERROR_CODES } from '#shapes/errors.ts';
import { baseUrl, code, createDeck, demo, newOwner } from '../support/api.ts';

const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 250);
const BUILT_INS = [...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype', 'then', 'length'];
const owner = await newOwner();
const other = await newOwner(['decks:read']);
const deck = (await createDeck(owner, { visibility: 'public', tags: ['fuzz'] })).body.data as { id: string; share_slug: string };
// A deck of its own for the delete route, so that the other routes keep theirs.
const victim = (await createDeck(owner)).body.data as { id: string };
const cardIds = demo.cards.slice(0, 40).map((c) => c.card_id);

// --- JSON text, built by hand so that `__proto__` and friends stay members of what is sent -----------------
const text = (s: string) => {
  // A lone surrogate is written as its escape: JSON.stringify does, and the server must refuse it.
  return JSON.stringify(s);
};
const obj = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`;
const arr = (items: string[]) => `[${items.join(',')}]`;

const nearLimits = Object.values(LIMITS).flatMap((n) => [n - 1, n, n + 1]);
const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(...BUILT_INS),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    'a\udfffb',
    'İ'.repeat(32),
    'e\u0301',
    '%%45|',
    '%%45|;;;',
    '<script>',
    '../../etc',
    '\u202e',
  ),
  fc.constantFrom(...nearLimits).map((n) => 'x'.repeat(Math.max(0, n))),
  fc.constantFrom(...cardIds),
);
const key = fc.oneof(fc.constantFrom(...BUILT_INS), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }));
const { json: hostileJson } = fc.letrec<{ json: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString.map(text),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1.5, 2 ** 31, 1e308)).map(String),
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('json'), { maxLength: 4 }).map(arr),
    fc.array(fc.tuple(key, tie('json')), { maxLength: 4 }).map(obj),
  ),
}));

/** JSON text near a valid template: each part kept, varied, dropped, or replaced by something hostile; extra members added. */
function near(t: unknown): fc.Arbitrary<string> {
  let usual: fc.Arbitrary<string>;
  if (Array.isArray(t)) {
    const item = t.length ? near(t[0]) : hostileJson;
    usual = fc.array(item, { maxLength: t.length + 3 }).map(arr);
  } else if (t !== null && typeof t === 'object') {
    const entries = Object.entries(t);
    usual = fc
      .tuple(fc.tuple(...entries.map(([, v]) => fc.option(near(v), { freq: 6 }))), fc.array(fc.tuple(key, hostileJson), { maxLength: 2 }))
      .map(([values, extra]) =>
        obj([...entries.flatMap(([k], i) => (values[i] === null ? [] : [[k, values[i] as string] as [string, string]])), ...extra]),
      );
  } else if (typeof t === 'string') {
    usual = fc.oneof({ weight: 3, arbitrary: fc.constant(text(t)) }, { weight: 2, arbitrary: hostileString.map(text) });
  } else usual = fc.constant(JSON.stringify(t));
  return fc.oneof({ weight: 5, arbitrary: usual }, { weight: 1, arbitrary: hostileJson });
}

const deckBody = {
  deck_code: code(),
  guide: { system: 'Tempo', description: 'd', core_cards: [cardIds[0]], reserve_recommendations: [cardIds[1]] },
  archive: {
    key_components: { enabled: true, items: [{ card_id: cardIds[0], reason: 'r' }] },
    alternatives: { enabled: false, items: [{ card_id: cardIds[2], reason: 'r', replaces_card_id: cardIds[0] }] },
    chart_settings: { otkConfig: { items: [{ card_ids: [cardIds[0]], required: 1, label: 'l' }] } },
  },
  tags: ['aggro'],
  visibility: 'private',
  sort_order: 0,
  featured_card_id: cardIds[0],
  card_back_id: 'back',
};
const BODIES: Record<string, unknown> = {
  createDeck: deckBody,
  validateDeck: deckBody,
  updateDeck: deckBody,
  replaceCards: { deck_code: code(), replacements: [{ remove_card_id: cardIds[0], add_card_id: cardIds[3], count: 1 }] },
  deleteDeck: {},
};

/** A body as bytes: JSON near the route's template, or hostile JSON, or not JSON, or not UTF-8, or around 128 KiB. */
const bodyFor = (route: Route): fc.Arbitrary<Buffer | undefined> => {
  const template = BODIES[route.name];
  return fc.oneof(
    { weight: 8, arbitrary: (template ? near(template) : hostileJson).map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"a":1}{', 'NaN', '\ufeff{}').map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), Buffer.from([0xc0, 0xaf])) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(127, 129).map((k) => Buffer.from(`{"guide":{"system":"T","description":"${'d'.repeat(k * 1024)}"}}`)),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
};

// --- query strings, headers, path parameters ---------------------------------------------------------------
/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD's bytes: what a client can send). */
const pct = (s: string) =>
  [...Buffer.from(s)]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');
const QUERY_NAMES = ['q', 'main_faction', 'ally_faction', 'tag', 'sort', 'page', 'limit', 'cursor', 'faction', 'type', 'rarity', 'derived'];
const queryValue = fc.oneof(
  hostileString,
  fc.constantFrom(
    'soviet',
    'usa',
    'france',
    'date',
    'views',
    'likes',
    'true',
    '0',
    '1',
    '50',
    '51',
    '200',
    '201',
    '1000',
    '-1',
    '1e3',
    ' 5',
    '5 ',
  ),
);
const queryString = fc.oneof(
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), key), queryValue), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')),
  fc.constantFrom('%', '%E0%A4%A', 'page=%FF', 'limit=1&limit=2', 'cursor=', '&&&', 'q=%00'),
);
const valid = {
  user_id: owner.userId,
  deck_id: deck.id,
  share_slug: deck.share_slug,
  card_id: cardIds[0] as string,
  code: urlCodeOf(parseDeckCode(code())),
};
// Mostly what gets a request past the gate (a key, the right user, JSON, no precondition), so that most
// cases reach the rules; the rest tries the gate itself.
const mostly = <T>(usual: fc.Arbitrary<T>, others: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: usual }, { weight: 1, arbitrary: others });
// A deck code is also sent in its other spellings (the %% form, URL-encoded): those answer 308.
const spellings = (name: string) => (name === 'code' ? [fc.constantFrom(pct(code()), pct(` ${code()}`))] : []);
// A parameter this test has no value of its own for: its declared example (lib/routes/params.ts).
const param = (name: string, ids: Record<string, string>, route: Route) =>
  mostly(
    fc.constant(ids[name] ?? (route.params?.[name]?.example as string)),
    fc.oneof(hostileString.filter((s) => s.length > 0).map(pct), fc.constantFrom(...BUILT_INS), ...spellings(name)),
  );
const authorization = mostly<string | undefined>(
  fc.constant(`Bearer ${owner.key}`),
  fc.constantFrom(
    `Bearer ${other.key}`,
    `bearer   ${owner.key}  `,
    'Bearer dlk_AAAAAAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'Bearer constructor',
    'Basic dXNlcjpwYXNz',
    '',
    undefined,
  ),
);
const contentType = mostly<string | undefined>(
  fc.constant('application/json'),
  fc.constantFrom('Application/JSON ; charset=UTF-8', 'application/json; charset=latin1', 'text/plain', '', undefined),
);
const preconditions = mostly<Record<string, string>>(
  fc.constant({}),
  fc.record(
    {
      'if-match': fc.constantFrom('"1"', '*', 'W/"2"', 'garbage', '"999999999999999999"', '"-1"'),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"'),
    },
    { requiredKeys: [] },
  ),
);

// --- what each route may answer ---------------------------------------------------------------------------
// The codes of each status, as the contract declares them (lib/shapes/errors.ts), and the gateway's own 431
// (a request line and headers over 16 KiB: a path parameter near a body limit).
const CODES: Record<number, readonly string[]> = { ...ERROR_CODES, 431: ['headers_too_large'] };
function allowed(route: Route): Set<number> {
  // Any route may be missed (a path parameter holding a '/') and land on not found; any body may be over the
  // limit; any request line may be over the gateway's header limit. Beyond those, what its declaration says it
  // answers (the document's statuses: lib/docs/openapi.ts errorsOf).
  const statuses = new Set([200, 404, 413, 431]);
  if (!route.success) return statuses;
  statuses.add(route.success.status);
  if (route.success.conditional) statuses.add(304);
  if (route.redirects) statuses.add(308);
  for (const status of errorsOf(route as ApiRoute).keys()) statuses.add(status);
  return statuses;
}

const counts = new Map<string, number>();
const statuses = new Map<number, number>();
async function check(route: Route, path: string, query: string, headers: Record<string, string | undefined>, body: Buffer | undefined) {
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) sent[k] = v;
  const res = await fetch(`${baseUrl()}${path}${query ? `?${query}` : ''}`, {
    method: route.method === 'ANY' ? 'GET' : route.method,
    headers: sent,
    body: route.method === 'GET' ? undefined : body,
    redirect: 'manual',
  });
  const raw = await res.text();
  counts.set(route.name, (counts.get(route.name) ?? 0) + 1);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const id = res.headers.get('x-request-id');
  const where = `${route.method} ${path}?${query} -> ${res.status} ${raw.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(id, where).toMatch(/^[0-9a-f-]{36}$/);
  expect(allowed(route).has(res.status), where).toBe(true);
  if (res.status === 304) return;
  // The answers that are not JSON (pages, the docs page's script, the deck image: errors keep the envelope,
  // but a page for people answers its 404 as a page), as each route declares them.
  const media = route.success?.contentType;
  if (media && (res.status === 200 || (route.htmlErrors as readonly number[] | undefined)?.includes(res.status)))
    return void expect(res.headers.get('content-type')?.startsWith(media), where).toBe(true);
  // A redirect to the canonical form of the path (a deck code's): the same route, its parameter canonical, the query kept.
  if (res.status === 308) {
    const to = new URL(res.headers.get('location') ?? '', baseUrl());
    expect(to.pathname.split('/').length, where).toBe(path.split('/').length);
    expect(to.search, where).toBe(query ? `?${query}` : '');
    return void expect(res.headers.get('content-type'), where).toMatch(/^text\/plain/);
  }
  const answer = JSON.parse(raw);
  if (route.name === 'openApi' && res.status === 200) return void expect(answer.openapi, where).toBe('3.1.0');
  if (res.status < 300) return void expect(answer.meta?.api_version, where).toBe('v1');
  expect(answer.meta, where).toEqual({ api_version: 'v1', request_id: id });
  expect(CODES[res.status], where).toContain(answer.error.code);
  expect(typeof answer.error.message, where).toBe('string');
  expect(raw, where).not.toMatch(/\bat \S+ \(\S+:\d+:\d+\)|node_modules|\.ts:\d|Exception/);
}

const routes = (ROUTES as readonly Route[]).filter((r) => r.path !== '$default');
const notFound = (ROUTES as readonly Route[]).find((r) => r.path === '$default') as Route;

describe('fuzz: every route answers the contract, whatever it is sent', () => {
  it.each(routes.map((r) => [r.name, r] as const))(
    '%s',
    async (_name, route) => {
      const names = paramNames(route.path);
      const ids: Record<string, string> = route.name === 'deleteDeck' ? { ...valid, deck_id: victim.id } : valid;
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...names.map((n) => param(n, ids, route))),
          queryString,
          authorization,
          contentType,
          preconditions,
          bodyFor(route),
          async (values, query, auth, type, conditions, body) => {
            let path = route.path;
            names.forEach((name, i) => {
              path = path.replace(`{${name}}`, values[i] as string);
            });
            await check(route, path, query, { authorization: auth, 'content-type': type, ...conditions }, body);
          },
        ),
        { numRuns: CASES_PER_ROUTE },
      );
    },
    120_000,
  );

  it('paths no route matches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileString.map(pct), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        async (segments, method) => {
          await check({ ...notFound, method: method as Route['method'] }, `/api/v1/x/${segments.join('/')}`, '', {}, undefined);
        },
      ),
      { numRuns: CASES_PER_ROUTE },
    );
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`fuzz: ${total} requests — ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(
      `fuzz: answers by status — ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}`,
    );
  }, 120_000);
});
