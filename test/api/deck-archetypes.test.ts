/**
 * A deck's archetype (contract §13.3) over HTTP: worked out by the rules in use on its write (the local runtime's
 * catalogue is the demo one, its rules lib/archetypes/demo.json), kept with it, and shown on every deck answer — the
 * create, validate, PATCH and owner reads, a version, the export, the public deck, search items — and search's
 * `archetype=` lists the public decks of that archetype, and no other.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import type { FactionId } from '#rules/factions.ts';
import { call, code, createDeck, details, newOwner, walkSearch } from '../support/api.ts';

interface Rule {
  id: string;
  names: { en: string; de?: string };
  main: string;
  holds: { card: string; min: number }[];
}
/** The demo rules, read as the file says (not through the service's reader). */
const RULES = (JSON.parse(readFileSync('lib/archetypes/demo.json', 'utf8')) as { archetypes: Rule[] }).archetypes;
const rule = (id: string) => RULES.find((r) => r.id === id) as Rule;
const SOVIET = rule('soviet-grey-rifles-thistle');
const GERMAN = rule('germany-grey-rifles-forward-march');

/** Whether a code holds a rule's cards (its nation aside): the copies of each card it names, counted here. */
const holds = (deckCode: string, r: Rule) => {
  const copies = new Map(parseDeckCode(deckCode).cards.map((c) => [c.card_id, c.count]));
  return r.holds.every((h) => (copies.get(h.card) ?? 0) >= h.min);
};
/** A legal demo code of a main nation that the rule takes (`taken`) or does not. */
function codeOf(main: FactionId, ally: FactionId, r: Rule, taken: boolean): string {
  for (let offset = 0; offset < 60; offset++) {
    const c = code(main, ally, offset);
    if (holds(c, r) === taken) return c;
  }
  throw new Error(`no demo code of ${main} that ${r.id} ${taken ? 'takes' : 'leaves'}`);
}
const byRule = (r: Rule) => ({ id: r.id, name: r.names.en, by: 'rule' });

describe("a deck's archetype on every deck answer, and search by it", () => {
  it('is worked out on the write, shown by every answer of the deck, and follows its code', async () => {
    const owner = await newOwner();
    const tag = `arch-${Date.now().toString(36)}`;
    const sovietCode = codeOf('soviet', 'usa', SOVIET, true);
    const plainSoviet = codeOf('soviet', 'usa', SOVIET, false);
    // What a deck would be: validate answers the archetype too, writing nothing.
    const validated = await call('POST', `${owner.decks}/validate`, {
      key: owner.key,
      body: { deck_code: sovietCode, guide: { system: 'Tempo' } },
    });
    expect([validated.status, validated.body.data.deck.archetype]).toEqual([200, byRule(SOVIET)]);

    const created = await createDeck(owner, { deck_code: sovietCode, visibility: 'public', tags: [tag] });
    const deck = created.body.data;
    expect(deck.archetype).toEqual(byRule(SOVIET));
    const read = await call('GET', `${owner.decks}/${deck.id}`, { key: owner.key });
    expect(read.body.data.archetype).toEqual(byRule(SOVIET));
    const shared = await call('GET', `/api/v1/decks/${deck.share_slug}`);
    expect([shared.status, shared.body.data.archetype]).toEqual([200, byRule(SOVIET)]);
    const listed = await call('GET', `/api/v1/decks?tag=${tag}`);
    expect(listed.body.data.map((d: { archetype: unknown }) => d.archetype)).toEqual([byRule(SOVIET)]);

    // A code no rule takes: none, on the answer and the deck; the first version keeps what it was.
    const changed = await call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { deck_code: plainSoviet } });
    expect([changed.status, changed.body.data.archetype]).toEqual([200, null]);
    expect((await call('GET', `/api/v1/decks/${deck.share_slug}`)).body.data.archetype).toBeNull();
    expect((await call('GET', `/api/v1/decks?tag=${tag}`)).body.data.map((d: { archetype: unknown }) => d.archetype)).toEqual([null]);
    const first = await call('GET', `${owner.decks}/${deck.id}/versions/1`, { key: owner.key });
    expect([first.status, first.body.data.archetype]).toEqual([200, byRule(SOVIET)]);
    expect((await call('GET', `${owner.decks}/${deck.id}/versions/2`, { key: owner.key })).body.data.archetype).toBeNull();

    // A restore is a write under today's rules: the archetype follows the code it brings back.
    const restored = await call('POST', `${owner.decks}/${deck.id}/versions/1/restore`, { key: owner.key, body: {} });
    expect([restored.status, restored.body.data.archetype]).toEqual([200, byRule(SOVIET)]);

    // The export is the owner's decks as their reads show them.
    const exported = await call('GET', `/api/v1/users/${owner.userId}/export`, { key: owner.key });
    expect(exported.status).toBe(200);
    expect(exported.body.data.decks.map((d: { archetype: unknown }) => d.archetype)).toEqual([byRule(SOVIET)]);
  });

  it("the share page and a code's page say it, in the page's language (English where the rule has none); none, no line", async () => {
    const owner = await newOwner();
    const sovietCode = codeOf('soviet', 'usa', SOVIET, true);
    const german = codeOf('germany', 'italy', GERMAN, true);
    const made = async (deckCode: string) =>
      (await createDeck(owner, { deck_code: deckCode, visibility: 'unlisted' })).body.data.share_slug as string;
    const line = async (path: string) => {
      const r = await call('GET', path);
      expect(r.status, path).toBe(200);
      return /<p class="archetype">([^<]*): <strong>([^<]*)<\/strong><\/p>/.exec(r.text)?.slice(1) ?? null;
    };
    const unescaped = (s: string) => s.replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    const soviet = await made(sovietCode);
    expect((await line(`/d/${soviet}`))?.map(unescaped)).toEqual(['Archetype', SOVIET.names.en]);
    expect((await line(`/d/${soviet}?lang=de`))?.map(unescaped)).toEqual(['Archetyp', SOVIET.names.de]);
    const germanSlug = await made(german);
    expect((await line(`/d/${germanSlug}?lang=de`))?.map(unescaped)).toEqual(['Archetyp', GERMAN.names.en]);
    expect(await line(`/d/${await made(codeOf('soviet', 'usa', SOVIET, false))}`)).toBeNull();
    const url = (await call('GET', `/api/v1/decks/${soviet}`)).body.data.deck_code as string;
    const facts = (await call('GET', `/api/v1/codes/${encodeURIComponent(url)}`)).body.data;
    expect((await line(`/c/${facts.url_code}?lang=de`))?.map(unescaped)).toEqual(['Archetyp', SOVIET.names.de]);
  });

  it('is set by the service: a body that gives it is refused, naming it', async () => {
    const owner = await newOwner();
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code(), guide: { system: 'Tempo' }, archetype: byRule(SOVIET) },
    });
    expect([r.status, details(r)]).toEqual([422, [['archetype', 'not_writable']]]);
  });

  it("search's archetype= lists the public decks of that archetype, and no other; with other filters too", async () => {
    const owner = await newOwner();
    const tag = `arch-search-${Date.now().toString(36)}`;
    const make = async (deckCode: string, visibility = 'public') =>
      (await createDeck(owner, { deck_code: deckCode, visibility, tags: [tag] })).body.data.share_slug as string;
    const soviet = [await make(codeOf('soviet', 'usa', SOVIET, true)), await make(codeOf('soviet', 'britain', SOVIET, true))];
    const german = await make(codeOf('germany', 'italy', GERMAN, true));
    const neither = await make(codeOf('soviet', 'usa', SOVIET, false));
    const hidden = await make(codeOf('soviet', 'usa', SOVIET, true), 'private');

    // Alone (the archetype's partition): every deck of it listed — ours among the library's — and none of another.
    const all = await walkSearch(`archetype=${SOVIET.id}`, 50);
    expect(all.slugs).toEqual(expect.arrayContaining(soviet));
    expect(all.slugs).not.toContain(german);
    expect(all.slugs).not.toContain(neither);
    expect(all.slugs).not.toContain(hidden);
    const page = await call('GET', `/api/v1/decks?archetype=${SOVIET.id}&limit=50`);
    for (const item of page.body.data) expect(item.archetype.id).toBe(SOVIET.id);

    // With a tag (the archetype's partition, the tag filtered on the read): exactly ours.
    expect(new Set((await walkSearch(`archetype=${SOVIET.id}&tag=${tag}`, 1)).slugs)).toEqual(new Set(soviet));
    expect((await walkSearch(`tag=${tag}&archetype=${GERMAN.id}`, 10)).slugs).toEqual([german]);
    expect((await walkSearch(`tag=${tag}&archetype=${GERMAN.id}&main_faction=soviet`, 10)).slugs).toEqual([]);
    // With a card (the card's partition, the archetype filtered on the read).
    const card = SOVIET.holds[0]?.card as string;
    expect(new Set((await walkSearch(`card=${card}&tag=${tag}&archetype=${SOVIET.id}`, 10)).slugs)).toEqual(new Set(soviet));
    // A cursor is bound to its archetype: another's, or none, refuses it.
    const first = await call('GET', `/api/v1/decks?archetype=${SOVIET.id}&tag=${tag}&limit=1`);
    const cursor = encodeURIComponent(first.body.meta.next_cursor as string);
    expect((await call('GET', `/api/v1/decks?archetype=${SOVIET.id}&tag=${tag}&limit=1&cursor=${cursor}`)).status).toBe(200);
    for (const other of [`archetype=${GERMAN.id}&tag=${tag}`, `tag=${tag}`]) {
      const r = await call('GET', `/api/v1/decks?${other}&limit=1&cursor=${cursor}`);
      expect([other, r.status, r.body.error?.code]).toEqual([other, 400, 'invalid_parameter']);
    }
    // An archetype no deck has: none; an id that cannot be one: 400.
    expect((await walkSearch('archetype=no-such-archetype', 10)).slugs).toEqual([]);
    for (const bad of ['Soviet', 'a--b', '-a', 'a'.repeat(65), '%E2%80%8B']) {
      const r = await call('GET', `/api/v1/decks?archetype=${bad}`);
      expect([r.status, r.body.error?.code], bad).toEqual([400, 'invalid_parameter']);
    }

    // Made private, a deck leaves its archetype's search.
    const slug = soviet[0] as string;
    const own = (await call('GET', owner.decks, { key: owner.key })).body.data.find((d: { share_slug: string }) => d.share_slug === slug);
    await call('PATCH', `${owner.decks}/${own.id}`, { key: owner.key, body: { visibility: 'private' } });
    expect((await walkSearch(`archetype=${SOVIET.id}&tag=${tag}`, 10)).slugs).toEqual([soviet[1]]);
  });
});
