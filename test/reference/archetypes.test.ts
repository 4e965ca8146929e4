/**
 * The starter archetype rules (lib/archetypes/2026-05.json: the pool of the catalogue of ../shared, generated
 * 2026-05-13) against the real catalogue and the real codes of ../shared, read there at test time: the file reads
 * (every card it names is the catalogue's and one its nations' decks may hold); every real code whose cards the
 * catalogue all holds is classified, each by the rule written from its cards; and no real code is taken by two rules
 * of one priority. The codes holding cards the catalogue lacks (newer than it) are classified by what it holds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '#catalogue/load.ts';
import { readArchetypeRules } from '#rules/archetype-file.ts';
import { archetypeOf, takenBy } from '#rules/archetype-of.ts';
import { FACTION_BY_NATION } from '#rules/factions.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

const STARTER = 'lib/archetypes/2026-05.json';

describe.skipIf(!hasRealCatalogue || !hasRealCodes)('the starter archetype rules, with the real catalogue and codes of ../shared', () => {
  const catalogue = loadCatalogueFile(REAL_CATALOGUE_FILE);
  const rules = readArchetypeRules(readFileSync(STARTER, 'utf8'), catalogue, STARTER);
  const decks = realCodes().map((r) => ({
    key: r.key,
    main: FACTION_BY_NATION[r.main] as string,
    ally: FACTION_BY_NATION[r.ally] as string,
    cards: r.cards.map((c) => ({ card_id: c.code, count: c.copies })),
    known: r.cards.every((c) => catalogue.get(c.code) !== undefined),
  }));

  it('classifies every real code whose cards the catalogue all holds, each by the rule written from its cards', () => {
    const classified = Object.fromEntries(decks.filter((d) => d.known).map((d) => [d.key, archetypeOf(rules, d)?.id ?? null]));
    expect(classified).toEqual({
      'jp-usa': 'japan-war-machine',
      'bri-fin': 'britain-motti-tactic',
      'wc-deck-socialist-tokens': 'soviet-reserves-frontal-assault',
      'server-japan-germany': 'japan-type-95-type-97-tanks',
      'parser-docstring-soviet-france': 'soviet-war-production-bloody-sickle',
      // The kards.com builder's empty code: no card, no archetype.
      'empty-usa-finland': null,
    });
    // Every rule takes a real deck (none written for nothing).
    expect(new Set(Object.values(classified))).toEqual(new Set([...rules.archetypes.map((a) => a.id), null]));
  });

  it('names each archetype by what its cards say: its nation, then every card it holds by name', () => {
    for (const a of rules.archetypes) {
      const name = (a.names.en as string).toLowerCase();
      for (const h of a.holds ?? [])
        expect([a.id, name]).toEqual([
          a.id,
          expect.stringContaining(String(catalogue.get(h.card)?.name).toLowerCase().replace(/^the /, '')),
        ]);
    }
  });

  it('takes no real code by two rules of one priority', () => {
    for (const d of decks) {
      const priorities = takenBy(rules, d).map((a) => a.priority);
      expect([d.key, priorities.length]).toEqual([d.key, new Set(priorities).size]);
    }
  });
});
