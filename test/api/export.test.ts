/**
 * The export (contract §9.4): walked to the end by its cursor, it is exactly the account's decks, whole
 * (as the owner reads each one), 25 a page at most, with the account and, on the first page, the slugs
 * it likes — over random libraries (fast-check); and what it rebuilds: each deck's code and fields
 * create the same deck in another account.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { LIMITS } from '#rules/limits.ts';
import { call, code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { inFunction, sentBytes } from '../support/in-function.ts';

const exportOf = (o: Owner, cursor?: string) =>
  call('GET', `/api/v1/users/${o.userId}/export${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { key: o.key });

/** Every page of an account's export, in order. */
async function walk(o: Owner) {
  const pages = [];
  let cursor: string | undefined;
  do {
    const r = await exportOf(o, cursor);
    expect(r.status).toBe(200);
    pages.push(r.body);
    cursor = r.body.meta.next_cursor ?? undefined;
    expect(r.body.meta.has_more).toBe(cursor !== undefined);
  } while (cursor);
  return pages;
}

const byId = <T extends { id: string }>(decks: T[]) => [...decks].sort((a, b) => a.id.localeCompare(b.id));

describe('GET /api/v1/users/:user_id/export', () => {
  it('property: walked to the end, it holds every deck of the account whole, once, 25 a page at most; the likes on the first page', async () => {
    const author = await newOwner();
    const liked = await Promise.all(
      [0, 1, 2].map((i) => createDeck(author, { deck_code: code('germany', 'japan', i), visibility: 'public' })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            offset: fc.nat(40),
            visibility: fc.constantFrom('public', 'private', 'unlisted'),
            description: fc.string({ maxLength: 300 }),
            tags: fc.array(fc.constantFrom('aggro', 'control', 'otk'), { maxLength: 2 }),
          }),
          { maxLength: 55, size: 'max' },
        ),
        fc.subarray([0, 1, 2]),
        async (library, likes) => {
          const o = await newOwner();
          const made: { id: string }[] = [];
          for (const d of library)
            made.push(
              (
                await createDeck(o, {
                  deck_code: code('soviet', 'usa', d.offset),
                  visibility: d.visibility,
                  tags: d.tags,
                  guide: { system: 'Tempo', description: d.description },
                })
              ).body.data,
            );
          const slugs = likes.map((i) => liked[i]?.body.data.share_slug as string);
          for (const slug of slugs) expect((await call('PUT', `/api/v1/users/${o.userId}/likes/${slug}`, { key: o.key })).status).toBe(200);
          const pages = await walk(o);
          expect(pages).toHaveLength(Math.max(1, Math.ceil(made.length / 25)));
          for (const [i, page] of pages.entries()) {
            expect(page.data.account).toEqual({ user_id: o.userId, display_name: o.displayName, created_at: expect.any(String) });
            expect(page.data.decks.length).toBeLessThanOrEqual(25);
            expect([...page.data.likes].sort()).toEqual(i === 0 ? [...slugs].sort() : []);
          }
          const exported = pages.flatMap((p) => p.data.decks);
          const read = await Promise.all(made.map(async (m) => (await call('GET', `${o.decks}/${m.id}`, { key: o.key })).body.data));
          expect(byId(exported)).toEqual(byId(read));
        },
      ),
      { numRuns: 5 },
    );
  }, 120_000);

  it('rebuilds: each exported deck’s writable fields, posted as the export gives them (display nested), make the same deck in another account', async () => {
    const o = await newOwner();
    await createDeck(o, {
      visibility: 'unlisted',
      tags: ['aggro'],
      sort_order: 3,
      featured_card_id: '2B',
      card_back_id: 'winter.back-1',
      guide: { system: 'Tempo', description: 'Hold the line.' },
      archive: { key_components: { enabled: true, items: [{ card_id: '2B', reason: 'opener' }] } },
    });
    const [deck] = (await exportOf(o)).body.data.decks;
    expect(deck.display).toEqual({ featured_card_id: '2B', card_back_id: 'winter.back-1' });
    const elsewhere = await newOwner();
    // The owner deck's writable fields (contract §3), exactly as the export lists them: nothing renamed or moved.
    const { deck_code, guide, archive, tags, visibility, sort_order, display } = deck;
    const rebuilt = await call('POST', elsewhere.decks, {
      key: elsewhere.key,
      body: { deck_code, guide, archive, tags, visibility, sort_order, display },
    });
    expect(rebuilt.status).toBe(201);
    const strip = ({ id: _i, share_slug: _s, created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest;
    expect(strip(rebuilt.body.data)).toEqual(strip(deck));
  });

  /** 30 decks at every text limit, written with the text given; their ids. */
  async function atEveryLimit(o: Owner, words: (n: number) => string): Promise<string[]> {
    const ids = parseDeckCode(code()).cards.map((c) => c.card_id);
    const made: string[] = [];
    for (let i = 0; i < 30; i++)
      made.push(
        (
          await createDeck(o, {
            guide: { system: 'Tempo', description: words(LIMITS.descriptionChars) },
            archive: {
              key_components: {
                enabled: true,
                items: ids.slice(0, LIMITS.keyComponents).map((card_id) => ({ card_id, reason: words(LIMITS.reasonChars) })),
              },
              alternatives: {
                enabled: true,
                items: Array.from({ length: LIMITS.alternatives }, (_, k) => ({
                  card_id: ids[k % ids.length],
                  reason: words(LIMITS.reasonChars),
                })),
              },
            },
          })
        ).body.data.id,
      );
    return made;
  }

  it('decks at every text limit (a Query stops at 1 MB, about 15 of them): every deck is exported all the same, no page over 25', async () => {
    const o = await newOwner();
    // Mostly two bytes a character in UTF-8: ~67 KB a deck, so a 1 MB Query holds about 15 of them.
    const made = await atEveryLimit(o, (n) => 'Держи линию. '.repeat(Math.ceil(n / 13)).slice(0, n));
    const pages = await walk(o);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.data.decks.length).toBeLessThanOrEqual(25);
    expect(pages.flatMap((p) => p.data.decks.map((d: { id: string }) => d.id)).sort()).toEqual([...made].sort());
  }, 60_000);

  it('decks at every text limit in the characters JSON escapes: every page under 3 MB as the function sends it, every deck exported', async () => {
    // One byte stored, two in the body ("\""), four in the function's answer, where the body is a string escaped again.
    const o = await newOwner();
    const made = await atEveryLimit(o, (n) => '"\\'.repeat(Math.ceil(n / 2)).slice(0, n));
    const exported: string[] = [];
    let cursor: string | undefined;
    let largest = 0;
    do {
      const answer = await inFunction('GET', `/api/v1/users/${o.userId}/export${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
        authorization: `Bearer ${o.key}`,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      largest = Math.max(largest, sentBytes(answer));
      const page = JSON.parse(answer.body as string);
      exported.push(...page.data.decks.map((d: { id: string }) => d.id));
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    console.log(`export of 30 decks of escaped text: the largest page ${largest} bytes as sent`);
    expect(largest).toBeLessThan(3_000_000);
    expect(exported.sort()).toEqual([...made].sort());
  }, 60_000);

  it("a cursor of another account's export, or of another list, is 400; an account without decks exports one page", async () => {
    const a = await newOwner();
    const b = await newOwner();
    for (let i = 0; i < 26; i++) await createDeck(a, { deck_code: code('soviet', 'usa', i) });
    const first = await exportOf(a);
    expect(first.body.data.decks).toHaveLength(25);
    const cursor = first.body.meta.next_cursor as string;
    const stolen = await exportOf(b, cursor);
    expect([stolen.status, stolen.body.error.code]).toEqual([400, 'invalid_parameter']);
    const list = (await call('GET', `${a.decks}?limit=1`, { key: a.key })).body.meta.next_cursor as string;
    expect((await exportOf(a, list)).status).toBe(400);
    const empty = await exportOf(b);
    expect([empty.status, empty.body.data.decks, empty.body.meta]).toEqual([
      200,
      [],
      { api_version: 'v1', has_more: false, next_cursor: null, left_out: [] },
    ]);
  });
});
