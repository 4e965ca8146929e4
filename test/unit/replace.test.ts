import { describe, expect, it } from 'vitest';
import { checkReplace } from '#rules/replace.ts';
import { TINY_CODE, tiny } from '../support/decks.ts';

const replace = (replacements: unknown, deck_code: unknown = TINY_CODE) => checkReplace({ deck_code, replacements }, tiny);
const codes = (r: ReturnType<typeof replace>) => (r.ok ? [] : r.details.map((d) => [d.path, d.code]));

describe('replace', () => {
  it('removes and adds copies in order and returns the new canonical code with derived fields', () => {
    const r = replace([
      { remove_card_id: 's1', add_card_id: 's7', count: 2 },
      { remove_card_id: 's7', add_card_id: 's8', count: 1 },
    ]);
    if (!r.ok) throw new Error(JSON.stringify(r.details));
    expect(r.result.deck_code).toBe('%%45|s7s8;s1;sL;s2s3s4s5s6u1u2u3');
    expect(r.result.name).toBe('Soviet Union / United States');
    expect(r.result.cards_snapshot.find((c) => c.card_id === 's1')).toEqual({ card_id: 's1', count: 2 });
  });

  it('not_enough_copies when the deck holds fewer copies than it should remove', () => {
    expect(codes(replace([{ remove_card_id: 'sL', add_card_id: 's7', count: 4 }]))).toEqual([
      ['replacements[0].remove_card_id', 'not_enough_copies'],
    ]);
    expect(codes(replace([{ remove_card_id: 's9', add_card_id: 's7', count: 1 }]))).toEqual([
      ['replacements[0].remove_card_id', 'not_enough_copies'],
    ]);
  });

  it('re-validates the allied limit, copy limits and cards on the replacement that caused them', () => {
    expect(codes(replace([{ remove_card_id: 's1', add_card_id: 'u4', count: 1 }]))).toEqual([['deck_code', 'ally_limit']]);
    expect(codes(replace([{ remove_card_id: 's1', add_card_id: 'sE', count: 2 }]))).toEqual([
      ['replacements[0].add_card_id', 'copy_limit'],
    ]);
    expect(codes(replace([{ remove_card_id: 's1', add_card_id: 's2', count: 1 }]))).toEqual([
      ['replacements[0].add_card_id', 'copy_limit'],
    ]);
    expect(
      codes(
        replace([
          { remove_card_id: 's1', add_card_id: 'g1', count: 1 },
          { remove_card_id: 's2', add_card_id: 'zz', count: 1 },
        ]),
      ),
    ).toEqual([
      ['replacements[0].add_card_id', 'wrong_faction'],
      ['replacements[1].add_card_id', 'unknown_card'],
    ]);
  });

  it('the 39-card rule still applies (a replacement keeps the size)', () => {
    expect(codes(replace([{ remove_card_id: 's1', add_card_id: 's7', count: 1 }], '%%45|;;sL;s1s2s3s4s5s6u1u2'))).toEqual([
      ['deck_code', 'deck_size'],
    ]);
  });

  it('shape: 1-20 replacements, count 1-4, 2-character ids, no other fields', () => {
    const ok = { remove_card_id: 's1', add_card_id: 's7', count: 1 };
    expect(codes(replace([]))).toEqual([['replacements', 'too_few']]);
    expect(codes(replace(Array(21).fill(ok)))).toEqual([['replacements', 'too_many']]);
    expect(codes(replace([{ ...ok, count: 5 }]))).toEqual([['replacements[0].count', 'invalid_value']]);
    expect(codes(replace([{ ...ok, count: 0 }]))).toEqual([['replacements[0].count', 'invalid_value']]);
    expect(codes(replace([{ ...ok, add_card_id: 'soviet_long_token' }]))).toEqual([['replacements[0].add_card_id', 'invalid_value']]);
    expect(codes(replace([{ ...ok, extra: 1 }]))).toEqual([['replacements[0].extra', 'unknown_field']]);
    expect(codes(replace([{ add_card_id: 's7', count: 1 }]))).toEqual([['replacements[0].remove_card_id', 'required']]);
    expect(codes(checkReplace({ replacements: [ok] }, tiny))).toEqual([['deck_code', 'required']]);
    expect(codes(checkReplace({ deck_code: TINY_CODE, replacements: [ok], name: 'x' }, tiny))).toEqual([['name', 'unknown_field']]);
    expect(codes(replace([ok], '%%45|x'))).toEqual([['deck_code', 'invalid_deck_code']]);
  });
});
