/** Shared reads by slug, visibility and its transitions, likes, and the card catalogue. */

import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { factionName } from '#rules/faction-names.ts';
import { labelsFor } from '#rules/labels.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { escapeMarkup } from '#share/markup.ts';
import { getCounts } from '#store/folds.ts';
import { storedViews } from '#store/view-counts.ts';
import { call, code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { settled } from '../support/settle.ts';

const PUBLIC_KEYS = [
  'id',
  'name',
  'main_faction',
  'ally_faction',
  'archetype',
  'deck_code',
  'cards_snapshot',
  'tags',
  'display',
  'guide',
  'archive',
  'author',
  'views',
  'views_7d',
  'likes',
  'created_at',
  'updated_at',
  'stats',
  'legality',
].sort();
const tagOf = () => `t${Math.random().toString(36).slice(2, 12)}`;
const searchTag = async (tag: string) =>
  (await call('GET', `/api/v1/decks?tag=${tag}`)).body.data.map((d: { share_slug: string }) => d.share_slug);
const setVisibility = (o: Owner, id: string, visibility: string) => call('PATCH', `${o.decks}/${id}`, { key: o.key, body: { visibility } });

describe('shared read', () => {
  it('a public deck: { data, meta.api_version v1 } in the public shape, with no owner-only field', async () => {
    const owner = await newOwner(undefined, 'Shared Author');
    const deck = (
      await createDeck(owner, {
        visibility: 'public',
        guide: { system: 'Tempo', description: 'how' },
        archive: { key_components: { enabled: false, items: [] } },
      })
    ).body.data;
    const r = await call('GET', `/api/v1/decks/${deck.share_slug}`);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ api_version: 'v1' });
    expect(Object.keys(r.body.data).sort()).toEqual(PUBLIC_KEYS);
    expect(r.body.data).toMatchObject({
      id: deck.id,
      name: deck.name,
      deck_code: deck.deck_code,
      cards_snapshot: deck.cards_snapshot,
      tags: deck.tags,
      display: deck.display,
      guide: deck.guide,
      archive: deck.archive,
      author: { display_name: 'Shared Author' },
      created_at: deck.created_at,
    });
    // No owner-only field at any depth, and the owner's id nowhere.
    const keys = new Set<string>();
    JSON.parse(JSON.stringify(r.body.data), (k, v) => {
      keys.add(k);
      return v;
    });
    for (const hidden of ['visibility', 'sort_order', 'version', 'share_slug', 'user_id', 'owner_id'])
      expect(keys.has(hidden), hidden).toBe(false);
    expect(r.text).not.toContain(owner.userId);
  });

  it('visibility matrix: public is searchable and readable, unlisted only readable, private neither (same 404 as unknown)', async () => {
    const owner = await newOwner();
    const tag = tagOf();
    const made: Record<string, { share_slug: string }> = {};
    for (const visibility of ['public', 'unlisted', 'private'])
      made[visibility] = (await createDeck(owner, { visibility, tags: [tag] })).body.data;
    expect(await searchTag(tag)).toEqual([made.public?.share_slug]);
    expect((await call('GET', `/api/v1/decks/${made.public?.share_slug}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/decks/${made.unlisted?.share_slug}`)).status).toBe(200);
    const hidden = await call('GET', `/api/v1/decks/${made.private?.share_slug}`);
    const unknown = await call('GET', '/api/v1/decks/AAAAAAAAAAAA');
    const malformed = await call('GET', '/api/v1/decks/x');
    for (const r of [hidden, unknown, malformed]) {
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([404, 'deck_not_found', 'no such deck']);
    }
  });

  it('transitions take effect at once: private and unlisted leave search, public enters, delete leaves both', async () => {
    const owner = await newOwner();
    const tag = tagOf();
    const deck = (await createDeck(owner, { tags: [tag] })).body.data;
    const path = `/api/v1/decks/${deck.share_slug}`;
    expect(await searchTag(tag)).toEqual([]);
    expect((await call('GET', path)).status).toBe(404);
    await setVisibility(owner, deck.id, 'public');
    expect(await searchTag(tag)).toEqual([deck.share_slug]);
    await setVisibility(owner, deck.id, 'unlisted');
    expect(await searchTag(tag)).toEqual([]);
    expect((await call('GET', path)).status).toBe(200);
    await setVisibility(owner, deck.id, 'private');
    expect((await call('GET', path)).status).toBe(404);
    await setVisibility(owner, deck.id, 'public');
    // A tag change moves the deck between tag facets.
    const other = tagOf();
    await call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { tags: [other] } });
    expect([await searchTag(tag), await searchTag(other)]).toEqual([[], [deck.share_slug]]);
    expect((await call('DELETE', `${owner.decks}/${deck.id}`, { key: owner.key, body: {} })).status).toBe(200);
    expect(await searchTag(other)).toEqual([]);
    expect((await call('GET', path)).status).toBe(404);
  });

  it('each read counts a view: shown at once to its reader, in the stored total soon after, once', async () => {
    const owner = await newOwner();
    const { share_slug } = (await createDeck(owner, { visibility: 'unlisted' })).body.data;
    const read = async () => (await call('GET', `/api/v1/decks/${share_slug}`)).body.data.views as number;
    const views = [];
    for (let i = 0; i < 3; i++) views.push(await read());
    // Each reader sees the stored total and its own view: the first 1, none more than its reads so far.
    expect(views[0]).toBe(1);
    for (const [i, v] of views.entries()) expect(v).toBeLessThanOrEqual(i + 1);
    // Counted from the access log: the three views are stored, and only once; the next reader sees them and its own.
    expect(
      await settled(
        () => storedViews(share_slug),
        (v) => v >= 3,
        15_000,
      ),
    ).toBe(3);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await storedViews(share_slug)).toBe(3);
    expect(await read()).toBe(4);
  });
});

describe('likes', () => {
  const likes = (o: Owner, slug: string, method: 'PUT' | 'DELETE') =>
    call(method, `/api/v1/users/${o.userId}/likes/${slug}`, { key: o.key });

  it('one like per account, idempotent both ways; shown on the deck', async () => {
    const owner = await newOwner();
    const fan = await newOwner();
    const { share_slug } = (await createDeck(owner, { visibility: 'public' })).body.data;
    const first = await likes(fan, share_slug, 'PUT');
    expect([first.status, first.body.data]).toEqual([200, { share_slug, liked: true, likes: 1 }]);
    expect((await likes(fan, share_slug, 'PUT')).body.data.likes).toBe(1);
    // The deck shows the folded count (the store-change worker's, shortly after): exact up to 10.
    const shown = () => call('GET', `/api/v1/decks/${share_slug}`).then((r) => r.body.data.likes as number);
    expect(await settled(shown, (n) => n === 1)).toBe(1);
    expect((await likes(owner, share_slug, 'PUT')).body.data.likes).toBe(2);
    expect((await likes(fan, share_slug, 'DELETE')).body.data).toEqual({ share_slug, liked: false, likes: 1 });
    expect((await likes(fan, share_slug, 'DELETE')).body.data.likes).toBe(1);
  });

  it('unlisted decks can be liked; private and unknown ones are 404', async () => {
    const owner = await newOwner();
    const unlisted = (await createDeck(owner, { visibility: 'unlisted' })).body.data;
    const hidden = (await createDeck(owner)).body.data;
    expect((await likes(owner, unlisted.share_slug, 'PUT')).status).toBe(200);
    for (const slug of [hidden.share_slug, 'AAAAAAAAAAAA']) {
      const r = await likes(owner, slug, 'PUT');
      expect([r.status, r.body.error.code]).toEqual([404, 'deck_not_found']);
    }
  });

  it('takes no body (its document declares none): a body is 415, and nothing is liked or unliked', async () => {
    const owner = await newOwner();
    const fan = await newOwner();
    const { share_slug } = (await createDeck(owner, { visibility: 'public' })).body.data;
    const path = `/api/v1/users/${fan.userId}/likes/${share_slug}`;
    for (const opts of [{ body: {} }, { body: { liked: false } }, { raw: 'x', headers: { 'content-type': 'text/plain' } }]) {
      const r = await call('PUT', path, { key: fan.key, ...opts });
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([415, 'unsupported_media_type', 'this route takes no body']);
    }
    expect((await getCounts(share_slug, true)).likes).toBe(0);
    expect((await likes(fan, share_slug, 'PUT')).body.data.likes).toBe(1);
    expect((await call('DELETE', path, { key: fan.key, body: {} })).status).toBe(415);
    expect((await getCounts(share_slug, true)).likes).toBe(1);
  });

  it("needs a key with decks:write, for the caller's own user_id", async () => {
    const owner = await newOwner();
    const reader = await newOwner(['decks:read']);
    const { share_slug } = (await createDeck(owner, { visibility: 'public' })).body.data;
    expect((await call('PUT', `/api/v1/users/${owner.userId}/likes/${share_slug}`)).status).toBe(401);
    expect((await likes(reader, share_slug, 'PUT')).body.error.code).toBe('insufficient_scope');
    expect((await call('PUT', `/api/v1/users/${reader.userId}/likes/${share_slug}`, { key: owner.key })).body.error.code).toBe(
      'user_mismatch',
    );
  });

  it('20 accounts liking at once, 20 times over: every like answered 200, stored once, and at rest the deck and every search entry show 20 within 10%', async () => {
    const owner = await newOwner();
    const fans = await Promise.all(Array.from({ length: 20 }, () => newOwner()));
    for (let round = 0; round < 20; round++) {
      const tag = tagOf();
      const { share_slug } = (await createDeck(owner, { visibility: 'public', tags: [tag] })).body.data;
      const replies = await Promise.all(fans.map((f) => likes(f, share_slug, 'PUT')));
      expect(
        replies.map((r) => r.status),
        `round ${round}: ${replies.map((r) => r.text).find((t) => !t.includes('"liked"'))}`,
      ).toEqual(Array(20).fill(200));
      // The exact count: every like stored once.
      expect(Math.max(...replies.map((r) => r.body.data.likes))).toBe(20);
      // Folded (likes exact up to 10, within 10% beyond), in the deck and in the search index alike.
      const shown = async (): Promise<[number, number]> => [
        (await call('GET', `/api/v1/decks/${share_slug}`)).body.data.likes,
        (await call('GET', `/api/v1/decks?tag=${tag}`)).body.data[0].likes,
      ];
      const [deckLikes, listed] = await settled(shown, ([d, l]) => d === l && d >= 18);
      expect(deckLikes).toBeGreaterThanOrEqual(18);
      expect(deckLikes).toBeLessThanOrEqual(20);
      expect(listed).toBe(deckLikes);
    }
  }, 120_000);
});

describe('card catalogue', () => {
  it('lists with filters, paging and total; cacheable with ETag and 304', async () => {
    const all = await call('GET', '/api/v1/cards?limit=200');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ api_version: 'v1', page: 1, limit: 200, total: expect.any(Number), has_more: true });
    expect(all.headers.get('cache-control')).toContain('max-age');
    const etag = all.headers.get('etag') as string;
    expect(etag).toMatch(/^"/);
    const again = await call('GET', '/api/v1/cards?limit=200', { headers: { 'if-none-match': etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    const second = await call('GET', `/api/v1/cards?limit=200&cursor=${all.body.meta.next_cursor}`);
    expect(second.body.meta.page).toBe(2);
    expect(all.body.data.length + second.body.data.length).toBe(all.body.meta.total);

    const soviet = await call('GET', '/api/v1/cards?faction=soviet&type=headquarters');
    expect(soviet.body.data.map((c: { faction: string; type: string }) => [c.faction, c.type])).toEqual([['soviet', 'headquarters']]);
    const derived = await call('GET', '/api/v1/cards?derived=true&rarity=standard');
    expect(derived.body.data.length).toBeGreaterThan(0);
    expect(derived.body.data.every((c: { derived: boolean; rarity: string }) => c.derived && c.rarity === 'standard')).toBe(true);
    const named = await call('GET', '/api/v1/cards?q=VOLGA%20grey');
    expect(named.body.data.map((c: { name: string }) => c.name)).toEqual(['Volga Grey Rifles']);
  });

  it('one card, or 404 card_not_found; bad parameters are 400 invalid_parameter', async () => {
    const r = await call('GET', '/api/v1/cards/2B');
    expect(r.body.data).toEqual({
      card_id: '2B',
      name: 'Volga Grey Rifles',
      faction: 'soviet',
      type: 'infantry',
      rarity: 'standard',
      kredits: 1,
      set: 'Demo Core',
      derived: false,
      exile: null,
    });
    expect(r.headers.get('etag')).toBeTruthy();
    const missing = await call('GET', '/api/v1/cards/zz');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'card_not_found']);
    for (const q of [
      'faction=prussia',
      'type=ship',
      'rarity=rare',
      'derived=maybe',
      'limit=201',
      'page=0',
      'cursor=abc',
      'lang=d',
      'lang=de_DE',
    ]) {
      const bad = await call('GET', `/api/v1/cards?${q}`);
      expect([q, bad.status, bad.body.error.code]).toEqual([q, 400, 'invalid_parameter']);
    }
  });

  it('names in the language asked (lang, else Accept-Language), English where the catalogue lacks it; Content-Language and Vary say so; each its own ETag', async () => {
    const german = await call('GET', '/api/v1/cards/2B?lang=de');
    expect([german.body.data.name, german.headers.get('content-language')]).toEqual(['Volga Graue Schützen', 'de']);
    expect(german.headers.get('vary')).toMatch(/accept-language/i);
    const asked = await call('GET', '/api/v1/cards/2B', { headers: { 'accept-language': 'nl-NL, de;q=0.8, en;q=0.5' } });
    expect([asked.body.data.name, asked.headers.get('content-language')]).toEqual(['Volga Graue Schützen', 'de']);
    // A served language the catalogue lacks (the demo's names are English and German): the answer is in it, its card
    // names English, and Content-Language says both (contract §12.5); one not served is English; never an error;
    // lang wins over the header.
    for (const [query, headers, language] of [
      ['?lang=ja', {}, 'ja, en'],
      ['', { 'accept-language': 'fr-FR, de;q=0.8' }, 'fr, en'],
      ['?lang=el', {}, 'en'],
      ['?lang=en', { 'accept-language': 'de' }, 'en'],
      ['', {}, 'en'],
    ] as const) {
      const english = await call('GET', `/api/v1/cards/2B${query}`, { headers });
      expect([query, english.body.data.name, english.headers.get('content-language')]).toEqual([query, 'Volga Grey Rifles', language]);
    }
    expect(german.headers.get('etag')).not.toBe((await call('GET', '/api/v1/cards/2B')).headers.get('etag'));
    // The list and its q follow the language too.
    const list = await call('GET', '/api/v1/cards?q=graue%20sch&faction=soviet&lang=de');
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Volga Graue Schützen']);
    expect(list.headers.get('content-language')).toBe('de');
  });
});

describe('languages (contract §11.5)', () => {
  it('all 12 are listed with their names; the demo catalogue names its cards in English and German: card names of the other ten are English', async () => {
    const r = await call('GET', '/api/v1/languages');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(
      SERVED_LANGUAGES.map(({ tag, name }) => ({ tag, name, card_names: tag === 'en' || tag === 'de' ? tag : 'en' })),
    );
    expect((await call('GET', '/api/v1/cards?limit=1&lang=ja')).headers.get('content-language')).toBe('ja, en');
  });

  it("labels and faction names in the language asked whatever the catalogue; card names English where it lacks them (a code's facts, page and image)", async () => {
    const deckCode = code('soviet', 'usa', 3);
    const url = urlCodeOf(parseDeckCode(deckCode));
    const first = demoCatalogue().get(parseDeckCode(deckCode).cards[0]?.card_id as string) as { name: string };
    for (const language of ['ja', 'zh-Hant', 'ko', 'ru', 'fr']) {
      const facts = await call('GET', `/api/v1/codes/${url}?lang=${language}`);
      expect([language, facts.status, facts.headers.get('content-language'), facts.body.data.name]).toEqual([
        language,
        200,
        `${language}, en`,
        `${factionName('soviet', language)} / ${factionName('usa', language)}`,
      ]);
      expect(facts.body.data.cards.map((c: { name: string }) => c.name)).toContain(first.name);
      const page = await call('GET', `/c/${url}?lang=${language}`);
      expect([language, page.headers.get('content-language'), page.text.includes(`<html lang="${language}">`)]).toEqual([
        language,
        `${language}, en`,
        true,
      ]);
      expect([
        language,
        page.text.includes(escapeMarkup(labelsFor(language).cardsByKredits)),
        page.text.includes(escapeMarkup(first.name)),
      ]).toEqual([language, true, true]);
      const image = await call('GET', `/api/v1/codes/${url}/image.png?lang=${language}`);
      expect([language, image.status, image.headers.get('content-language')]).toEqual([language, 200, `${language}, en`]);
    }
    // The labels differ from English: the Japanese ones are not the English ones.
    expect(labelsFor('ja').cardsByKredits).not.toBe(labelsFor('en').cardsByKredits);
  });
});

describe('bad search parameters', () => {
  it.each([
    'limit=51',
    'limit=0',
    'page=0',
    'page=-1',
    'sort=rating',
    'main_faction=france',
    'main_faction=prussia',
    'ally_faction=prussia',
    'cursor=forged',
    'page=999999&limit=50',
  ])('%s is 400 invalid_parameter', async (q) => {
    const r = await call('GET', `/api/v1/decks?${q}`);
    expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
  });

  it('an edited cursor is refused, and a cursor of another query too', async () => {
    const owner = await newOwner();
    const tag = tagOf();
    for (let i = 0; i < 3; i++) await createDeck(owner, { visibility: 'public', tags: [tag], deck_code: code('soviet', 'usa', i) });
    const first = await call('GET', `/api/v1/decks?tag=${tag}&limit=1`);
    const cursor: string = first.body.meta.next_cursor;
    expect(cursor).toBeTruthy();
    const [payload, mac] = cursor.split('.') as [string, string];
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"p":2', '"p":9')).toString('base64url');
    for (const bad of [`${edited}.${mac}`, `${payload}.${mac.slice(1)}x`, `${payload}`]) {
      const r = await call('GET', `/api/v1/decks?tag=${tag}&limit=1&cursor=${bad}`);
      expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
    }
    for (const other of [`tag=${tag}&limit=2`, `tag=${tag}&limit=1&sort=views`, `limit=1`]) {
      const r = await call('GET', `/api/v1/decks?${other}&cursor=${cursor}`);
      expect([other, r.status]).toEqual([other, 400]);
    }
    expect((await call('GET', `/api/v1/decks?tag=${tag}&limit=1&cursor=${cursor}`)).status).toBe(200);
  });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with every route of the route table, owner routes behind the bearer key, bodies from the schemas', async () => {
    const { ROUTES } = await import('#routes');
    const r = await call('GET', '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBeTruthy();
    const doc = r.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES.filter((x) => x.path !== '$default')) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, route.name).toBeDefined();
      // An owner route needs the key; a public one that takes it for part of its answer (keyFor: search's buildable_by) may carry it.
      expect(op.security, route.name).toEqual('scope' in route ? [{ apiKey: [] }] : 'keyFor' in route ? [{}, { apiKey: [] }] : []);
      expect(op['x-required-scope'], route.name).toBe('scope' in route ? route.scope : undefined);
    }
    const create = doc.paths['/api/v1/users/{user_id}/decks'].post.requestBody.content['application/json'].schema;
    // deck_code and guide, or deck_text (the game's text export) in place of deck_code.
    expect(create.anyOf.map((s: { required: string[] }) => s.required)).toEqual([
      ['deck_code', 'guide'],
      ['deck_text', 'guide'],
    ]);
    for (const s of create.anyOf) {
      expect(s.additionalProperties).toBe(false);
      expect(s.properties.guide.properties.system.maxLength).toBe(40);
    }
    const replace = doc.paths['/api/v1/users/{user_id}/decks/replace'].post.requestBody.content['application/json'].schema;
    expect(replace.properties.replacements).toMatchObject({ minItems: 1, maxItems: 20 });
    expect((await call('GET', '/api/v1/openapi.json', { headers: { 'if-none-match': r.headers.get('etag') as string } })).status).toBe(304);
  });
});
