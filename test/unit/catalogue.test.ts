import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import { isCodeCardId } from '#rules/base62.ts';
import { cardName } from '#rules/card.ts';
import {
  CARD_TYPES,
  type Card,
  type Catalogue,
  CatalogueFormatError,
  COMPILED_FORMAT,
  compileCatalogue,
  makeCatalogue,
  parseCatalogue,
  RARITIES,
} from '#rules/catalogue.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { checkDeck } from '#rules/deck-rules.ts';
import { FACTIONS, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { deckableCards, legalDeck } from '../support/decks.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../support/shared.ts';

describe('catalogue formats', () => {
  const kardsRecord = {
    id: 'some_card',
    importId: 'fy',
    slug: 'x',
    name: 'SOME CARD',
    nation: 'Poland',
    type: 'fighter',
    rarity: 'Limited',
    set: 'Legions',
    kredits: 3,
    exile: 'Britain',
    reserved: true,
    spawnable: false,
    attack: 2,
  };

  it('reads the kards.com card API format', () => {
    const cat = parseCatalogue([
      kardsRecord,
      { ...kardsRecord, id: 'token_x', importId: '', set: 'OnlySpawnable', nation: 'Neutral', exile: null },
    ]);
    expect(cat.get('fy')).toEqual({
      card_id: 'fy',
      name: 'SOME CARD',
      faction: 'poland',
      type: 'fighter',
      rarity: 'limited',
      kredits: 3,
      set: 'Legions',
      derived: false,
      exile: 'britain',
      reserved: true,
    });
    // Not in the Reserve pool: no mark.
    expect(parseCatalogue([{ ...kardsRecord, reserved: false }]).get('fy')).not.toHaveProperty('reserved');
    // The compiled form keeps the mark.
    expect(parseCatalogue(JSON.parse(compileCatalogue(cat))).get('fy')).toMatchObject({ reserved: true });
    // No importId: the longer id stands in; OnlySpawnable means derived.
    expect(cat.get('token_x')).toMatchObject({ faction: 'neutral', derived: true, exile: null });
  });

  const card = {
    card_id: 'a1',
    name: 'Grey Rifles',
    faction: 'usa',
    type: 'infantry',
    rarity: 'standard',
    kredits: 1,
    set: 's',
    derived: false,
    exile: null,
  };

  it('reads the project format and a { cards } wrapper', () => {
    expect(parseCatalogue([card]).get('a1')).toEqual(card);
    expect(parseCatalogue({ cards: [card] }).cards).toHaveLength(1);
  });

  it('reads names by language (contract §10.1); a file without them is English only', () => {
    const named = parseCatalogue([{ ...card, names: { en: 'Grey Rifles', ru: 'Серые стрелки', zh: '灰色步枪' } }]);
    expect([...named.languages].sort()).toEqual(['en', 'ru', 'zh']);
    expect(cardName(named.get('a1') as Card, 'ru')).toBe('Серые стрелки');
    expect(cardName(named.get('a1') as Card, 'de')).toBe('Grey Rifles');
    expect([...parseCatalogue([card]).languages]).toEqual(['en']);
    expect(() => parseCatalogue([{ ...card, names: { Russian: 'x' } }])).toThrow(/card \[0\]\.names/);
    expect(() => parseCatalogue([{ ...card, names: { ru: '' } }])).toThrow(CatalogueFormatError);
  });

  it('refuses malformed files with the record named', () => {
    expect(() => parseCatalogue({})).toThrow(CatalogueFormatError);
    expect(() => parseCatalogue([{ ...kardsRecord, nation: 'Atlantis' }])).toThrow(/card \[0\]\.nation/);
    expect(() => parseCatalogue([kardsRecord, kardsRecord])).toThrow(/twice/);
    expect(() => parseCatalogue([{ card_id: 'a1' }])).toThrow(CatalogueFormatError);
  });

  // Issue 53: NUL, BEL and a right-to-left override passed a refresh's validation and reached embeds and deck.txt.
  it('refuses a name or set no reader sees as it is (control, format, separator characters), in either format, as display names are', () => {
    for (const bad of ['A\u0000B', 'BELL\u0007', '\u202eELBAT', 'LINE\u2028BREAK']) {
      expect(() => parseCatalogue([{ ...kardsRecord, name: bad }])).toThrow(/card \[0\]\.name: a card's name holds no control/);
      expect(() => parseCatalogue([{ ...kardsRecord, set: bad }])).toThrow(/card \[0\]\.set/);
      expect(() => parseCatalogue([{ ...card, name: bad }])).toThrow(CatalogueFormatError);
      expect(() => parseCatalogue([{ ...card, names: { de: bad } }])).toThrow(/card \[0\]\.names/);
    }
    // Letters of every script, and spaces, are text.
    expect(parseCatalogue([{ ...card, names: { ja: 'パンツァー IV', ko: '판처', ar: 'دبابة' } }]).cards).toHaveLength(1);
  });
});

describe('the demo catalogue', () => {
  const cat = demoCatalogue();

  it('names every card in English and in a second language, German (invented, as the names are)', () => {
    expect([...cat.languages].sort()).toEqual(['de', 'en']);
    for (const card of cat.cards) expect(Object.keys(card.names ?? {}).sort(), card.card_id).toEqual(['de', 'en']);
    expect(cat.cards.filter((c) => cardName(c, 'de') !== c.name).length).toBeGreaterThan(cat.cards.length / 2);
  });

  it('has all ten factions and neutral cards, every type and rarity, derived cards and exiles', () => {
    const factions = new Set(cat.cards.map((c) => c.faction));
    for (const f of FACTIONS) expect(factions).toContain(f.id);
    expect(factions).toContain('neutral');
    expect(new Set(cat.cards.map((c) => c.type))).toEqual(new Set(CARD_TYPES));
    expect(new Set(cat.cards.map((c) => c.rarity))).toEqual(new Set(RARITIES));
    expect(cat.cards.some((c) => c.derived && isCodeCardId(c.card_id))).toBe(true);
    expect(cat.cards.some((c) => c.derived && !isCodeCardId(c.card_id))).toBe(true);
    expect(cat.cards.some((c) => c.exile !== null)).toBe(true);
  });

  it('has at least 25 deckable cards per faction, each with a code id', () => {
    for (const f of FACTIONS) {
      const deckable = deckableCards(cat, f.id);
      expect(deckable.length, f.id).toBeGreaterThanOrEqual(25);
      expect(deckable.every((c) => isCodeCardId(c.card_id))).toBe(true);
    }
  });

  it('for every main/ally pair a generated legal deck passes every rule', () => {
    let pairs = 0;
    for (const main of MAIN_FACTION_IDS) {
      for (const ally of FACTIONS.map((f) => f.id)) {
        if (ally === main) continue;
        for (const allyCopies of [0, 12]) {
          const code = encodeDeckCode({ main, ally, cards: legalDeck(cat, main, ally, allyCopies, pairs) });
          expect(checkDeck(parseDeckCode(code), cat), `${main}/${ally}`).toEqual([]);
        }
        pairs++;
      }
    }
    expect(pairs).toBe(45);
  });
});

describe('the compiled catalogue (what the functions load)', () => {
  /** Compiled, then loaded as a function loads it: the same cards, in the same order, each found by its id and nothing else. */
  function roundTrip(checked: Catalogue) {
    const compiled = compileCatalogue(checked);
    expect(JSON.parse(compiled).format).toBe(COMPILED_FORMAT);
    const loaded = parseCatalogue(JSON.parse(compiled));
    for (const card of checked.cards) expect(loaded.get(card.card_id)).toEqual(card);
    expect(loaded.cards).toEqual(checked.cards);
    expect(loaded.languages).toEqual(checked.languages);
    return loaded;
  }

  it('loads to the same cards as the checked file, and is marked as compiled', () => {
    const loaded = roundTrip(demoCatalogue());
    for (const id of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '', ' 2B', '2B ', 'no-such-card'])
      expect(loaded.get(id), id).toBeUndefined();
  });

  it.skipIf(!hasRealCatalogue)('the real catalogue too (1,488 cards, numeric ids among them)', () => {
    roundTrip(loadCatalogueFile(REAL_CATALOGUE_FILE));
  });

  it('any catalogue: every id found, any other string not', () => {
    const id = fc.stringMatching(/^[0-9A-Za-z_.:-]{1,12}$/);
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 0, maxLength: 60 }), fc.array(fc.string(), { maxLength: 20 }), (ids, others) => {
        const cards = ids.map((card_id, i) => ({ ...(demoCatalogue().cards[i % 5] as Card), card_id }));
        const loaded = roundTrip(makeCatalogue(cards));
        for (const other of others) if (!ids.includes(other)) expect(loaded.get(other)).toBeUndefined();
      }),
    );
  });
});
