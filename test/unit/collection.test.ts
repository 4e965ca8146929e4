/** A collection's rules (lib/rules/collection.ts), on the demo catalogue: its text, its JSON, a change, what a deck misses. */
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { changedCollection, missingOf, readCollectionBody, readCollectionPatch, readCollectionText } from '#rules/collection.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import type { DeckTextError } from '#rules/deck-text.ts';
import { LIMITS } from '#rules/limits.ts';
import { deckableCards, legalCode } from '../support/decks.ts';

const demo = demoCatalogue();
const [a, b] = deckableCards(demo, 'soviet') as [(typeof demo.cards)[number], (typeof demo.cards)[number]];
const errorOf = (text: string) => {
  try {
    readCollectionText(text, demo);
  } catch (e) {
    return e as DeckTextError;
  }
  throw new Error('read');
};

describe('a collection’s text', () => {
  it('card lines with or without kredits, summed; a name line before "Major power:", metadata, headers and the code read past', () => {
    const text = [
      'My cards',
      'Major power: soviet',
      `2x ${a.name}`,
      `1x (${a.kredits}K) ${a.name.toUpperCase()}`,
      'soviet:',
      `3x ${b.name}`,
      '',
      'A second deck',
      'Major power: soviet',
      'Ally: usa',
      'HQ: Moscow',
      `1x [${b.card_id}]`,
      legalCode(demo, 'soviet', 'usa'),
    ].join('\n');
    expect(readCollectionText(text, demo)).toEqual({ [a.card_id]: 3, [b.card_id]: 4 });
  });

  it('what it cannot read names its line: not a card line, no such card, past 99 copies, a card no deck holds', () => {
    expect(errorOf(`1x ${a.name}\nsomething else`).message).toMatch(/^line 2: "something else" is not a card line/);
    expect(errorOf(`1x ${a.name}\n\n2x Nobody`).message).toMatch(/^line 3: no card is named "Nobody"/);
    expect(errorOf(`60x ${a.name}\n40x ${a.name}`).message).toMatch(/^line 2: .*100 copies; at most 99/);
    const derived = demo.cards.find((c) => c.derived && c.card_id.length === 2);
    if (derived) expect(errorOf(`1x [${derived.card_id}]`).message).toMatch(/^line 1: .*derived card/);
  });

  it('a first line is a card line, a header, or a name line before "Major power:": anything else is an error naming it', () => {
    // Each of these, first, would once have been read past as a deck's name, the lines after it replacing a collection.
    const hostile = ['1000x', '-1x', '1.5x', '1e309x', '0x10x', '\uff12x', 'NaNx', '+1x'].map((n) => `${n} ${a.name}`);
    for (const first of [...hostile, 'hello world', `${a.name}`, '\u202e2x evil'])
      for (const rest of ['', `\n2x ${b.name}`]) expect(errorOf(`${first}${rest}`).message).toMatch(/^line 1: /);
    // Before a "Major power:" the same line is a deck's name, as the game's export writes one.
    expect(readCollectionText(`1000x ${a.name}\nMajor power: soviet\n2x ${b.name}`, demo)).toEqual({ [b.card_id]: 2 });
  });

  it("the export's own lines are read as a deck's export reads them: a code that parses, a nation that is one, an HQ named", () => {
    for (const [line, why] of [
      ['%%hello world', /^line 1: the code does not parse/],
      ['Major power: banana', /^line 1: "banana" names no nation/],
      ['Ally: hello world', /^line 1: "hello world" names no nation/],
      ['Major power: finland', /^line 1: Finland cannot be a major power/],
      ['HQ:', /^line 1: "HQ:" names no headquarters/],
    ] as const) {
      expect(errorOf(`${line}\n2x ${b.name}`).message).toMatch(why);
      // A name line before a "Major power:" that names no nation is no name line: the error is the metadata's.
      expect(errorOf(`1000x ${a.name}\n${line}\n2x ${b.name}`).message).toMatch(/^line [12]: /);
    }
    expect(readCollectionText(`Deck\nMajor power: soviet\nAlly: usa\nHQ: Moscow\n2x ${b.name}`, demo)).toEqual({ [b.card_id]: 2 });
  });

  it('a text that holds no card line is an error, not an empty collection', () => {
    for (const text of ['', '   \n\n', 'Deck\nMajor power: soviet\nAlly: usa', 'soviet:'])
      expect(errorOf(text).message).toMatch(/holds no card line/);
  });

  it('a text of many decks’ name lines reads in one pass (8,000 name and metadata lines, then one card)', () => {
    const text = `${Array.from({ length: 4_000 }, (_, i) => `Deck ${i}\nMajor power: soviet`).join('\n')}\n1x ${a.name}`;
    expect(text.length).toBeLessThanOrEqual(LIMITS.collectionTextChars);
    expect(readCollectionText(text, demo)).toEqual({ [a.card_id]: 1 });
  });
});

describe('a collection’s body and change', () => {
  it('cards or text, one of the two; a JSON count is a whole number 0 to 99, 0 not kept', () => {
    expect(readCollectionBody({ cards: { [a.card_id]: 2, [b.card_id]: 0 } }, demo)).toEqual({ ok: true, value: { [a.card_id]: 2 } });
    expect(readCollectionBody({ cards: {}, text: '' }, demo).ok).toBe(false);
    expect(readCollectionBody({ cards: { [a.card_id]: -1 } }, demo)).toMatchObject({
      ok: false,
      details: [{ path: `cards.${a.card_id}` }],
    });
    // A body's own __proto__ member (JSON.parse makes one, an object literal would not) is a key like any other: refused.
    expect(readCollectionBody(JSON.parse('{"cards":{"__proto__":1}}'), demo)).toMatchObject({
      ok: false,
      details: [{ path: 'cards.__proto__' }],
    });
  });

  it('a change adds first, then removes (more than owned leaves none); past 99 is refused', () => {
    const change = readCollectionPatch({ add: { [a.card_id]: 1 }, add_text: `2x ${b.name}`, remove: { [b.card_id]: 5 } }, demo);
    expect(change.ok).toBe(true);
    if (!change.ok) return;
    expect(changedCollection({ [a.card_id]: 1, [b.card_id]: 1 }, change.value)).toEqual({ ok: true, value: { [a.card_id]: 2 } });
    expect(changedCollection({ [a.card_id]: 99 }, change.value)).toMatchObject({
      ok: false,
      details: [{ path: `add.${a.card_id}`, code: 'too_many' }],
    });
    expect(readCollectionPatch({}, demo)).toMatchObject({ ok: false, details: [{ code: 'required' }] });
  });

  it('what a deck misses: exactly held, buildable; a copy fewer, that copy', () => {
    const deck = parseDeckCode(legalCode(demo, 'soviet', 'usa'));
    const held = Object.fromEntries(deck.cards.map((c) => [c.card_id, c.count]));
    expect(missingOf(deck, held, demo)).toMatchObject({ buildable: true, total: 0, cards: [] });
    const first = deck.cards[0] as { card_id: string; count: number };
    const fewer = { ...held, [first.card_id]: first.count - 1 };
    const card = demo.get(first.card_id);
    expect(missingOf(deck, fewer, demo)).toMatchObject({
      buildable: false,
      total: 1,
      cards: [{ card_id: first.card_id, count: 1 }],
      by_rarity: { [card?.rarity as string]: 1 },
      by_nation: { [card?.faction as string]: 1 },
    });
  });
});
