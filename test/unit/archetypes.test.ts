/**
 * Archetype rules as data (contract §13.3; lib/rules/archetypes.ts), on the demo catalogue: a rules file read or
 * refused with the line that is wrong; a deck's archetype the first rule that takes it by priority; the JSON Schema
 * beside the rules files the one made from their declaration. (The starter rules against the real catalogue and
 * the real codes: test/reference/archetypes.test.ts.)
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { readArchetypeRules } from '#rules/archetype-file.ts';
import { archetypeName, archetypeOf, takenBy } from '#rules/archetype-of.ts';
import { ArchetypeRulesError, archetypeRulesSchema } from '#rules/archetypes.ts';

const catalogue = demoCatalogue();
const rule = (over: Record<string, unknown>) => ({
  id: 'germany-grey-rifles',
  names: { en: 'Germany · Grey Rifles', de: 'Deutschland · Graue Schützen' },
  main: 'germany',
  ally: 'any',
  priority: 10,
  holds: [{ card: '10', min: 2 }],
  ...over,
});
const file = (...archetypes: Record<string, unknown>[]) => JSON.stringify({ period: '2026-05', archetypes }, null, 2);
const refusal = (text: string) => {
  try {
    readArchetypeRules(text, catalogue, 'rules.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ArchetypeRulesError);
    return (e as Error).message;
  }
  throw new Error('read');
};

describe('a rules file', () => {
  it('is read: the archetypes as written', () => {
    const rules = readArchetypeRules(file(rule({})), catalogue);
    expect(rules.archetypes.map((a) => a.id)).toEqual(['germany-grey-rifles']);
  });

  it('is refused, naming the line, when a rule names a card the catalogue lacks, a spawned card or one of other nations', () => {
    const text = file(rule({}), rule({ id: 'germany-other', priority: 11, one_of: [{ cards: ['10', 'zz'], min: 2 }] }));
    const line = text.split('\n').findIndex((l) => l.includes('"zz"')) + 1;
    expect(refusal(text)).toBe(`rules.json:${line}: germany-other names the card zz, which the catalogue does not hold`);
    expect(refusal(file(rule({ holds: [{ card: '1u', min: 1 }] })))).toMatch(/spawned by other cards: never in a deck$/);
    // An Italian card in a German rule with a Soviet ally: no deck of those nations holds it; with any ally, one may.
    expect(refusal(file(rule({ ally: 'soviet', holds: [{ card: '4b', min: 1 }] })))).toMatch(/which no deck of its nations holds$/);
    expect(readArchetypeRules(file(rule({ holds: [{ card: '4b', min: 1 }] })), catalogue).archetypes).toHaveLength(1);
  });

  it('is refused for what its schema does not allow, naming the line and the path; and for an id or a key given twice', () => {
    const text = file(rule({ names: { de: 'Nur Deutsch' } }));
    const line = text.split('\n').findIndex((l) => l.includes('"names"')) + 1;
    expect(refusal(text)).toMatch(new RegExp(`^rules\\.json:${line}: archetypes\\.0\\.names\\.en: `));
    expect(refusal(file(rule({ main: 'italy' })))).toMatch(/^rules\.json:\d+: archetypes\.0\.main: /);
    expect(refusal(file(rule({ holds: [{ card: '10', min: 5 }] })))).toMatch(/^rules\.json:\d+: archetypes\.0\.holds\.0\.min: /);
    expect(refusal(file(rule({ colour: 'grey' })))).toMatch(/^rules\.json:\d+: archetypes\.0\.colour: /);
    // A cluster's id is the cluster job's: a rule's never starts as one (lib/rules/clusters.ts clusterId).
    expect(refusal(file(rule({ id: 'cluster-germany-0123456789ab' })))).toMatch(
      /^rules\.json:\d+: archetypes\.0\.id: an id starting with cluster-/,
    );
    expect(refusal(JSON.stringify({ period: '2026-13', archetypes: [] }))).toMatch(/^rules\.json:1: period: /);
    expect(refusal(file(rule({ holds: undefined })))).toMatch(/holds cards/);
    expect(refusal(file(rule({ holds: [] })))).toMatch(/archetypes\.0\.holds: /);
    const dup = file(rule({}), rule({ priority: 12 }));
    const second = dup.split('\n').flatMap((l, i) => (l.includes('"germany-grey-rifles"') ? [i + 1] : []))[1];
    expect(refusal(dup)).toBe(`rules.json:${second}: germany-grey-rifles: this id is given to an archetype before it`);
    // A key given twice: JSON.parse would keep the last silently.
    const twice = '{\n  "period": "2026-05",\n  "archetypes": [],\n  "archetypes": []\n}';
    expect(refusal(twice)).toBe('rules.json:4: archetypes is given twice (JSON keeps the last: say it once)');
    expect(refusal('{ "period": ')).toMatch(/^rules\.json:1:\d+: not JSON/);
    expect(refusal('{\n  "period": "2026-05",\n  "archetypes": [],\n}')).toMatch(/^rules\.json:4:1: not JSON \(/);
    // A byte-order mark is taken off.
    expect(readArchetypeRules(`\uFEFF${file(rule({}))}`, catalogue).archetypes).toHaveLength(1);
  });

  it('names the line of the value that is wrong, not of an earlier one equal to it', () => {
    // The Italian card 4b is fine in the first rule (any ally) and wrong in the second (a Soviet ally).
    const text = file(
      rule({ holds: [{ card: '4b', min: 1 }] }),
      rule({ id: 'second', ally: 'soviet', priority: 11, holds: [{ card: '4b', min: 1 }] }),
    );
    const line = text.split('\n').flatMap((l, i) => (l.includes('"4b"') ? [i + 1] : []))[1];
    expect(refusal(text)).toMatch(new RegExp(`^rules\\.json:${line}: second names `));
  });

  it('is refused for a rule no deck can meet, or a name that is not text to show', () => {
    expect(refusal(file(rule({ ally: 'germany' })))).toMatch(/its ally is its main nation/);
    const elite = catalogue.cards.find((c) => c.faction === 'germany' && c.rarity === 'elite' && !c.derived && c.type !== 'headquarters');
    expect(refusal(file(rule({ holds: [{ card: elite?.card_id, min: 2 }] })))).toMatch(/asks 2 copies of .*: a deck holds at most 1$/);
    expect(refusal(file(rule({ holds: undefined, one_of: [{ cards: ['10', '10'], min: 2 }] })))).toMatch(/names a card twice in one set$/);
    expect(refusal(file(rule({ holds: undefined, one_of: [{ cards: ['10'], min: 5 }] })))).toMatch(
      /asks 5 copies of a set whose cards allow 4$/,
    );
    expect(refusal(file(rule({ without: ['10'] })))).toMatch(/refuses 10, which it also requires$/);
    const hq = catalogue.cards.find((c) => c.type === 'headquarters' && c.faction === 'germany');
    if (hq) expect(refusal(file(rule({ holds: [{ card: hq.card_id, min: 1 }] })))).toMatch(/a headquarters: never in a deck/);
    // What no reader sees (contract §9.1, as tags and display names: a line or paragraph separator, private use, a
    // noncharacter, an unassigned code point) and what draws nothing at an end (a Hangul filler, the blank braille
    // pattern, a combining mark first), each where the reader found it (hostile review).
    for (const name of [
      'Japan\u001b[31m',
      'a\u202eb',
      '\u200b',
      ' Padded',
      'Padded ',
      'Japan \ud800',
      'Germany · a\u2028b',
      'Germany · a\u2029b',
      'Germany · a\uffffb',
      'Germany · a\ue000b',
      'Germany · a\u0378b',
      'Germany · \u3164',
      'Germany · \u2800',
      '\u0301Germany · a',
    ])
      expect(refusal(file(rule({ names: { en: name } }))), JSON.stringify(name)).toMatch(/archetypes\.0\.names\.en: /);
    // A letter and its combining accent end a name as they end a word.
    expect(() => readArchetypeRules(file(rule({ names: { en: 'Germany · Cafe\u0301' } })), catalogue, 'f.json')).not.toThrow();
  });

  it('has the JSON Schema lib/archetypes/rules.schema.json holds (made from its one declaration: scripts/write-archetype-schema.ts)', () => {
    // As data: the file is formatted as the project's JSON is (biome), the schema written as JSON.stringify writes it.
    expect(JSON.parse(readFileSync('lib/archetypes/rules.schema.json', 'utf8'))).toEqual(JSON.parse(archetypeRulesSchema()));
  });
});

describe("a deck's archetype", () => {
  const rules = readArchetypeRules(
    file(
      rule({ id: 'broad', priority: 20, holds: undefined, one_of: [{ cards: ['10', '11', '12'], min: 4 }] }),
      rule({ id: 'narrow', priority: 10, holds: [{ card: '10', min: 2 }], without: ['13'] }),
      rule({ id: 'with-soviet', priority: 10, ally: 'soviet', holds: [{ card: '11', min: 3 }] }),
    ),
    catalogue,
  );
  const deck = (ally: string, cards: Record<string, number>) => ({
    main: 'germany',
    ally,
    cards: Object.entries(cards).map(([card_id, count]) => ({ card_id, count })),
  });

  it('is the first rule that takes it, by priority (lower first), then the file’s order', () => {
    expect(archetypeOf(rules, deck('usa', { '10': 2, '11': 2 }))?.id).toBe('narrow');
    // `without`: one copy of 13 and the narrow rule leaves it; the broad one takes it.
    expect(archetypeOf(rules, deck('usa', { '10': 2, '11': 2, '13': 1 }))?.id).toBe('broad');
    expect(archetypeOf(rules, deck('soviet', { '10': 1, '11': 3 }))?.id).toBe('with-soviet');
    expect(archetypeOf(rules, deck('usa', { '10': 1, '11': 3 }))?.id).toBe('broad');
    expect(archetypeOf(rules, deck('usa', { '10': 1, '11': 1 }))).toBeUndefined();
    expect(archetypeOf(rules, { ...deck('usa', { '10': 4 }), main: 'japan' })).toBeUndefined();
    expect(takenBy(rules, deck('soviet', { '10': 2, '11': 3 })).map((a) => a.id)).toEqual(['narrow', 'with-soviet', 'broad']);
  });

  it('is named in the reader’s language where the rule names it, else in English', () => {
    const [first] = rules.archetypes;
    expect(first && [archetypeName(first, 'de'), archetypeName(first, 'ja')]).toEqual([
      'Deutschland · Graue Schützen',
      'Germany · Grey Rifles',
    ]);
  });

  it('never depends on the order of the deck’s cards; a rule takes a deck exactly when each of its conditions holds', () => {
    const ids = ['10', '11', '12', '13'];
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }), (counts) => {
        const cards = Object.fromEntries(ids.map((id, i) => [id, counts[i] as number]).filter(([, n]) => (n as number) > 0));
        const d = deck('usa', cards);
        const reversed = { ...d, cards: [...d.cards].reverse() };
        expect(archetypeOf(rules, reversed)?.id).toBe(archetypeOf(rules, d)?.id);
        const [c10, c11, c12, c13] = counts as [number, number, number, number];
        const expected = c10 >= 2 && c13 === 0 ? 'narrow' : c10 + c11 + c12 >= 4 ? 'broad' : undefined;
        expect(archetypeOf(rules, d)?.id).toBe(expected);
      }),
    );
  });
});
