/** What changed between two decks or two versions of one (contract §9.2), against models. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardChanges } from '#rules/card-changes.ts';
import { changedFields, VERSIONED_FIELDS, type Versioned, type VersionedField } from '#rules/changed-fields.ts';
import type { CardCount } from '#rules/deck-code.ts';
import { defaultArchive } from '#rules/deck-model.ts';

const ids = ['0A', '2B', '7X', '84', 'bQ', 'o0', 'o5', 'zz'];
const cardList = fc
  .uniqueArray(fc.constantFrom(...ids), { maxLength: ids.length })
  .chain((chosen) => fc.tuple(...chosen.map((card_id) => fc.integer({ min: 1, max: 4 }).map((count) => ({ card_id, count })))));
const total = (cards: readonly CardCount[], id: string) => cards.filter((c) => c.card_id === id).reduce((n, c) => n + c.count, 0);

describe('cardChanges', () => {
  it('reads as the contract shows: added and removed by the change in copies, kept by the copies both hold', () => {
    const from = [
      { card_id: '7X', count: 3 },
      { card_id: '84', count: 1 },
      { card_id: 'bQ', count: 2 },
    ];
    const to = [
      { card_id: '84', count: 3 },
      { card_id: 'bQ', count: 1 },
      { card_id: 'o0', count: 2 },
    ];
    expect(cardChanges(from, to)).toEqual({
      added: [
        { card_id: '84', count: 2 },
        { card_id: 'o0', count: 2 },
      ],
      removed: [
        { card_id: '7X', count: 3 },
        { card_id: 'bQ', count: 1 },
      ],
      kept: [
        { card_id: '84', count: 1 },
        { card_id: 'bQ', count: 1 },
      ],
    });
  });

  it('from + added − removed is to, per card; kept is what both hold; each list sorted, positive, each card once', () => {
    fc.assert(
      fc.property(cardList, cardList, (from, to) => {
        const { added, removed, kept } = cardChanges(from, to);
        for (const id of ids) {
          expect(total(from, id) + total(added, id) - total(removed, id)).toBe(total(to, id));
          expect(total(kept, id)).toBe(Math.min(total(from, id), total(to, id)));
          expect(total(added, id) > 0 && total(removed, id) > 0).toBe(false);
        }
        for (const list of [added, removed, kept]) {
          expect(list.every((c) => c.count > 0)).toBe(true);
          expect(list.map((c) => c.card_id)).toEqual([...new Set(list.map((c) => c.card_id))].sort());
        }
      }),
    );
  });

  it('a deck against itself: nothing added or removed, everything kept', () => {
    fc.assert(
      fc.property(cardList, (cards) => {
        const changes = cardChanges(cards, cards);
        expect([changes.added, changes.removed]).toEqual([[], []]);
        expect(changes.kept).toEqual([...cards].sort((a, b) => (a.card_id < b.card_id ? -1 : 1)));
      }),
    );
  });
});

describe('changedFields', () => {
  const base: Versioned = {
    deck_code: '%%45|o0o5;bQ;7X;84',
    guide: { system: 'Tempo', description: '', core_cards: [], reserve_recommendations: [] },
    archive: defaultArchive(),
    tags: ['a'],
    visibility: 'public',
    sort_order: 0,
    display: { featured_card_id: null, card_back_id: null },
  };
  it('names each writable field that differs, in the contract order, and none for an equal copy', () => {
    expect(changedFields(base, structuredClone(base))).toEqual([]);
    const edits: [VersionedField, (d: Versioned) => void][] = [
      ['deck_code', (d) => (d.deck_code = '%%45|o0o5;bQ;7X;85')],
      [
        'guide',
        (d) => {
          if (d.guide) d.guide.core_cards = ['7X'];
        },
      ],
      ['archive', (d) => d.archive.key_components?.items.push({ card_id: '7X', reason: '' })],
      ['tags', (d) => d.tags.push('b')],
      ['visibility', (d) => (d.visibility = 'unlisted')],
      ['sort_order', (d) => (d.sort_order = 1)],
      ['featured_card_id', (d) => (d.display.featured_card_id = '7X')],
      ['card_back_id', (d) => (d.display.card_back_id = 'back')],
    ];
    fc.assert(
      fc.property(fc.subarray(edits.map((_, i) => i)), (chosen) => {
        const next = structuredClone(base);
        for (const i of chosen) edits[i]?.[1](next);
        expect(changedFields(base, next)).toEqual(VERSIONED_FIELDS.filter((f) => chosen.some((i) => edits[i]?.[0] === f)));
      }),
    );
  });
});
