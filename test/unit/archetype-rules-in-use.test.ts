/**
 * The archetype rules a service uses (lib/catalogue/archetypes.ts): the newest period's for the game's catalogue, the
 * demo rules for the demo catalogue — whichever reads against the catalogue in use — and a deck's archetype as an
 * answer shows it (contract §13.3).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { archetypeRules, RULES_FILES, rulesInUse } from '#catalogue/archetypes.ts';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import { readArchetypeRules } from '#rules/archetype-file.ts';
import { archetypeAnswer } from '#rules/archetype-of.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { code } from '../support/api.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../support/shared.ts';

describe('the archetype rules in use', () => {
  it("tries the newest period's file of lib/archetypes/ first, then the demo rules", () => {
    const periods = readdirSync('lib/archetypes')
      .filter((f) => /^\d{4}-\d{2}\.json$/.test(f))
      .sort();
    expect(RULES_FILES.map((f) => f.file)).toEqual([`lib/archetypes/${periods.at(-1)}`, 'lib/archetypes/demo.json']);
  });

  it('each file a service bundles reads whole against its catalogue (a service checks only that its cards are there)', () => {
    expect(() => readArchetypeRules(readFileSync('lib/archetypes/demo.json', 'utf8'), demoCatalogue(), 'demo.json')).not.toThrow();
    if (hasRealCatalogue)
      expect(() =>
        readArchetypeRules(readFileSync(RULES_FILES[0].file, 'utf8'), loadCatalogueFile(REAL_CATALOGUE_FILE), RULES_FILES[0].file),
      ).not.toThrow();
  });

  it('on the demo catalogue, the demo rules: each named by its nation and every card it holds', () => {
    const demo = demoCatalogue();
    const found = rulesInUse(demo);
    expect(found.inUse?.file).toBe('lib/archetypes/demo.json');
    expect(found.problems).toEqual([]);
    for (const a of found.inUse?.rules.archetypes ?? []) {
      const name = a.names.en as string;
      for (const h of a.holds ?? []) expect([a.id, name]).toEqual([a.id, expect.stringContaining(String(demo.get(h.card)?.name))]);
    }
  });

  it.skipIf(!hasRealCatalogue)(
    "on the game's catalogue, the newest period's rules; never the demo's, though its ids are the game's too",
    () => {
      const real = loadCatalogueFile(REAL_CATALOGUE_FILE);
      expect(rulesInUse(real).inUse?.file).toBe(RULES_FILES[0].file);
      // The demo rules' cards are ids of the game's catalogue too: a catalogue of the game's that lost a card the
      // period's rules name has no rules, not the demo's.
      const demoIds = RULES_FILES[1].rules.archetypes.flatMap((a) => a.holds.map((h) => h.card));
      expect(demoIds.every((id) => real.get(id) !== undefined)).toBe(true);
      const lost = rulesInUse(makeCatalogue(real.cards.filter((c) => c.card_id !== 'bK')));
      expect([lost.inUse, lost.problems]).toEqual([
        undefined,
        [expect.stringMatching(/names the card bK, which the catalogue does not hold/)],
      ]);
    },
  );

  it('none when no file reads (a catalogue that lost a card every file names)', () => {
    const demo = demoCatalogue();
    const without = makeCatalogue(demo.cards.filter((c) => c.card_id !== '2B'));
    expect(archetypeRules(without)).toBeUndefined();
    // No longer the demo catalogue whole (a card of its rules gone): the game's rules are tried, and do not read.
    expect(rulesInUse(without).problems).toEqual([
      expect.stringMatching(/^lib\/archetypes\/2026-05\.json: .* which the catalogue does not hold$/),
    ]);
    expect(archetypeRules(makeCatalogue([]))).toBeUndefined();
  });

  it("a deck's archetype as answered: the first rule that takes it, named in the language asked (else English), or null", () => {
    const rules = archetypeRules(demoCatalogue());
    const soviet = parseDeckCode(code('soviet', 'usa', 0));
    expect(archetypeAnswer(rules, soviet, 'en')).toEqual({
      id: 'soviet-grey-rifles-thistle',
      name: 'Soviet Union · Volga Grey Rifles and Volga Thistle Mk I',
      by: 'rule',
    });
    expect(archetypeAnswer(rules, soviet, 'de')?.name).toBe('Sowjetunion · Volga Grey Rifles und Volga Thistle Mk I');
    expect(archetypeAnswer(rules, soviet, 'fr')?.name).toBe('Soviet Union · Volga Grey Rifles and Volga Thistle Mk I');
    // A language that is a key of every object is no name of the rule's (hostile review): English.
    for (const language of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(archetypeAnswer(rules, soviet, language)?.name).toBe('Soviet Union · Volga Grey Rifles and Volga Thistle Mk I');
    expect(archetypeAnswer(rules, parseDeckCode(code('japan', 'usa', 0)), 'en')).toBeNull();
    expect(archetypeAnswer(undefined, soviet, 'en')).toBeNull();
  });
});
