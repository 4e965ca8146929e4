/** GET /api/v1/decks/diff (contract §9.2): two decks compared, by share slug or deck code. */
import { describe, expect, it } from 'vitest';
import { cardChanges } from '#rules/card-changes.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { storedViews } from '#store/view-counts.ts';
import { call, code, createDeck, newOwner } from '../support/api.ts';

const diff = (from: string, to: string) => call('GET', `/api/v1/decks/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);

describe('GET /api/v1/decks/diff', () => {
  it('two public or unlisted decks by slug: added, removed, kept as the rule gives, both sides and both stats; no view counted', async () => {
    const owner = await newOwner();
    const a = (await createDeck(owner, { deck_code: code('soviet', 'usa', 0), visibility: 'public' })).body.data;
    const b = (await createDeck(owner, { deck_code: code('soviet', 'usa', 3, 9), visibility: 'unlisted' })).body.data;
    const r = await diff(a.share_slug, b.share_slug);
    expect(r.status).toBe(200);
    const expected = cardChanges(parseDeckCode(a.deck_code).cards, parseDeckCode(b.deck_code).cards);
    expect(expected.added.length + expected.removed.length).toBeGreaterThan(0);
    expect({ added: r.body.data.added, removed: r.body.data.removed, kept: r.body.data.kept }).toEqual(expected);
    expect(r.body.data.from).toEqual({ deck_code: a.deck_code, name: a.name, main_faction: 'soviet', ally_faction: 'usa' });
    expect(r.body.data.to.deck_code).toBe(b.deck_code);
    // Each side's stats are the deck's own (as its read shows them).
    const readA = (await call('GET', `${owner.decks}/${a.id}`, { key: owner.key })).body.data;
    const readB = (await call('GET', `${owner.decks}/${b.id}`, { key: owner.key })).body.data;
    expect(r.body.data.stats).toEqual({ from: readA.stats, to: readB.stats });
    // Reversed: added and removed swap, kept stays.
    const back = (await diff(b.share_slug, a.share_slug)).body.data;
    expect([back.added, back.removed, back.kept]).toEqual([expected.removed, expected.added, expected.kept]);
    expect(await storedViews(a.share_slug)).toBe(0);
  });

  it('a URL-encoded deck code on either side, compared with a slug or another code; its canonical code and name answered', async () => {
    const owner = await newOwner();
    const a = (await createDeck(owner, { deck_code: code('germany', 'italy', 1), visibility: 'public' })).body.data;
    const other = code('germany', 'italy', 4, 10);
    const r = await diff(other, a.share_slug);
    expect(r.status).toBe(200);
    expect(r.body.data.from.name).toBe(a.name);
    expect(r.body.data.from.deck_code).toBe(other);
    // A code against itself: nothing added or removed, all kept.
    const same = (await diff(a.deck_code, a.deck_code)).body.data;
    expect([same.added, same.removed]).toEqual([[], []]);
    expect(same.kept).toEqual(cardChanges(parseDeckCode(a.deck_code).cards, []).removed);
  });

  it('a private, unknown or malformed slug is 404 deck_not_found; a code that does not parse or a missing side is 400 invalid_parameter', async () => {
    const owner = await newOwner();
    const hidden = (await createDeck(owner, { deck_code: code(), visibility: 'private' })).body.data;
    const shown = (await createDeck(owner, { deck_code: code(), visibility: 'public' })).body.data;
    for (const ref of [hidden.share_slug, 'ZZZZZZZZZZZZ', 'diff', 'x'.repeat(13)]) {
      const r = await diff(shown.share_slug, ref);
      expect([r.status, r.body.error.code]).toEqual([404, 'deck_not_found']);
    }
    const bad = await diff('%%45|zz', shown.share_slug);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect(bad.body.error.message).toMatch(/^from is not a deck code/);
    for (const [path, missing] of [
      [`/api/v1/decks/diff?from=${shown.share_slug}`, 'to'],
      ['/api/v1/decks/diff', 'from'],
      [`/api/v1/decks/diff?to=${shown.share_slug}&from=`, 'from'],
      [`/api/v1/decks/diff?from[]=x&to=${shown.share_slug}`, 'from'],
    ] as const) {
      const r = await call('GET', path);
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([
        400,
        'invalid_parameter',
        `${missing} is required: a share slug or a URL-encoded deck code`,
      ]);
    }
  });
});
