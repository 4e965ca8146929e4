/**
 * Strict input (contract §8.1), each seen failure of the hardening issue as a regression: built-in
 * property names as members at every level, arrays for objects (and objects for arrays), every
 * failing rule at every level, tags normalised before they are checked, unpaired surrogates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeckContent } from '#rules/deck-model.ts';
import { checkCreate, checkPatch } from '#rules/deck-write.ts';
import type { Detail } from '#rules/details.ts';
import { checkReplace } from '#rules/replace.ts';
import { TINY_CODE, tiny } from '../support/decks.ts';

const base = () => ({ deck_code: TINY_CODE, guide: { system: 'Tempo' } });
const pairs = (r: { ok: boolean; details?: Detail[] }) => (r.ok ? [] : (r.details ?? []).map((d) => [d.path, d.code]));
/** The same failures in path order (the order of details is not part of the contract). */
const sorted = (list: unknown[][]) => [...list].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const create = (body: Record<string, unknown>) => pairs(checkCreate(body, tiny, undefined));
const current = (): DeckContent => {
  const r = checkCreate(base(), tiny, undefined);
  if (!r.ok) throw new Error('base deck');
  return r.content;
};
const patch = (body: Record<string, unknown>) => pairs(checkPatch(body, current(), tiny, undefined));

/** Every name of a built-in property of plain objects (and `__proto__`). */
const BUILT_INS = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'then'];

describe('built-in property names are unknown fields like any other, at every level', () => {
  it.each(BUILT_INS)('%s', (name) => {
    // JSON.parse makes each one an own member, as a client's body would.
    const member = (v: unknown) => JSON.parse(`{${JSON.stringify(name)}: ${JSON.stringify(v)}}`);
    const at = (path: string) => (path ? `${path}.${name}` : name);
    expect(create({ ...base(), ...member(1) })).toEqual([[at(''), 'unknown_field']]);
    expect(patch(member({}))).toEqual([[at(''), 'unknown_field']]);
    expect(create({ ...base(), guide: { system: 'T', ...member('x') } })).toEqual([[at('guide'), 'unknown_field']]);
    const section = { enabled: true, items: [{ card_id: 's1', reason: 'r', ...member(null) }], ...member([]) };
    expect(sorted(create({ ...base(), archive: { key_components: section, ...member(1) } }))).toEqual(
      sorted([
        [at('archive'), 'unknown_field'],
        [at('archive.key_components'), 'unknown_field'],
        [at('archive.key_components.items[0]'), 'unknown_field'],
      ]),
    );
    const otk = { otkConfig: { items: [{ card_ids: ['s1'], required: 1, ...member(2) }], ...member(3) }, ...member(4) };
    expect(sorted(create({ ...base(), archive: { chart_settings: otk } }))).toEqual(
      sorted([
        [at('archive.chart_settings'), 'unknown_field'],
        [at('archive.chart_settings.otkConfig'), 'unknown_field'],
        [at('archive.chart_settings.otkConfig.items[0]'), 'unknown_field'],
      ]),
    );
    expect(
      sorted(
        pairs(
          checkReplace(
            { deck_code: TINY_CODE, replacements: [{ remove_card_id: 's1', add_card_id: 's7', count: 1, ...member(1) }], ...member(1) },
            tiny,
          ),
        ),
      ),
    ).toEqual(
      sorted([
        [at(''), 'unknown_field'],
        [at('replacements[0]'), 'unknown_field'],
      ]),
    );
  });
});

describe('an array where an object is expected, and an object where an array is, is invalid_type there', () => {
  it.each([
    ['archive: []', { archive: [] }, [['archive', 'invalid_type']]],
    ['guide: []', { guide: [] }, [['guide', 'invalid_type']]],
    ['a section: []', { archive: { alternatives: [] } }, [['archive.alternatives', 'invalid_type']]],
    [
      'an item: []',
      { archive: { key_components: { enabled: false, items: [[]] } } },
      [['archive.key_components.items[0]', 'invalid_type']],
    ],
    ['otkConfig: []', { archive: { chart_settings: { otkConfig: [] } } }, [['archive.chart_settings.otkConfig', 'invalid_type']]],
    ['tags: {}', { tags: {} }, [['tags', 'invalid_type']]],
    ['core_cards: {}', { guide: { system: 'T', core_cards: { 0: 's1' } } }, [['guide.core_cards', 'invalid_type']]],
    ['items: {}', { archive: { alternatives: { enabled: false, items: {} } } }, [['archive.alternatives.items', 'invalid_type']]],
  ])('%s', (_name, body, expected) => {
    expect(create({ ...base(), ...body })).toEqual(expected);
  });

  it('replacements: [[]] is one invalid_type, not three required', () => {
    expect(pairs(checkReplace({ deck_code: TINY_CODE, replacements: [[]] }, tiny))).toEqual([['replacements[0]', 'invalid_type']]);
    expect(pairs(checkReplace({ deck_code: TINY_CODE, replacements: {} }, tiny))).toEqual([['replacements', 'invalid_type']]);
  });
});

describe('every failing rule at every level is reported', () => {
  it('every unknown member of the guide, not only the first', () => {
    expect(create({ ...base(), guide: { system: 'T', a: 1, b: 2, c: 3 } })).toEqual([
      ['guide.a', 'unknown_field'],
      ['guide.b', 'unknown_field'],
      ['guide.c', 'unknown_field'],
    ]);
  });

  it('a too-long guide.system does not hide a core card that is not in the deck', () => {
    expect(create({ ...base(), guide: { system: 'x'.repeat(41), core_cards: ['s1', 's9'] } })).toEqual([
      ['guide.system', 'too_long'],
      ['guide.core_cards[1]', 'not_in_deck'],
    ]);
  });

  it('a broken item does not hide its neighbours; a failed id is not also judged as a card', () => {
    const items = [
      { card_id: 7, reason: 'r' },
      { card_id: 's9', reason: 'r' },
      { card_id: 'x'.repeat(65), reason: ' ' },
    ];
    expect(create({ ...base(), archive: { key_components: { enabled: true, items }, alternatives: null } })).toEqual([
      ['archive.key_components.items[0].card_id', 'invalid_type'],
      ['archive.key_components.items[2].card_id', 'invalid_value'],
      ['archive.alternatives', 'null_section'],
      ['archive.key_components.items[2].reason', 'blank_reason'],
      ['archive.key_components.items[1].card_id', 'not_in_deck'],
    ]);
  });
});

describe('tags are normalised, then checked', () => {
  it('"İ" × 32 lower-cases to 64 characters: too_long, never stored longer than 32', () => {
    expect(create({ ...base(), tags: ['İ'.repeat(32)] })).toEqual([['tags[0]', 'too_long']]);
    expect(create({ ...base(), tags: ['İ'.repeat(16)] })).toEqual([]);
  });

  it('NFC: a decomposed and a composed tag are one tag', () => {
    const r = checkCreate({ ...base(), tags: ['Cafe\u0301', 'café'] }, tiny, undefined);
    expect(r.ok && r.content.tags).toEqual(['café']);
  });

  it('property: any tag list that is accepted reads back as a list that is accepted unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 12 }), (tags) => {
        const first = checkCreate({ ...base(), tags }, tiny, undefined);
        if (!first.ok) return;
        const again = checkCreate({ ...base(), tags: first.content.tags }, tiny, undefined);
        expect(again.ok && again.content.tags).toEqual(first.content.tags);
        for (const t of first.content.tags) expect([...t].length).toBeLessThanOrEqual(32);
      }),
      { numRuns: 500 },
    );
  });
});

describe('unpaired surrogates are invalid_value at their path', () => {
  it.each([
    ['guide.system', { guide: { system: 'Lone\ud800' } }],
    ['guide.description', { guide: { system: 'T', description: 'x\udfff' } }],
    ['tags[1]', { tags: ['ok', 'Lone\ud800'] }],
    [
      'archive.key_components.items[0].reason',
      { archive: { key_components: { enabled: true, items: [{ card_id: 's1', reason: '\udc00' }] } } },
    ],
    ['card_back_id', { card_back_id: '\ud800' }],
  ])('%s', (path, body) => {
    expect(create({ ...base(), ...body })).toContainEqual([path, 'invalid_value']);
  });

  it('a well-formed pair (an emoji) is text', () => {
    expect(create({ ...base(), guide: { system: 'Tempo 🚀' } })).toEqual([]);
  });
});
