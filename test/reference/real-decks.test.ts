/**
 * Real KARDS deck codes (and, when present, the real May 2026 catalogue) from ../shared. Skipped, and
 * saying so, when ../shared is absent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '#catalogue/load.ts';
import { DeckCodeError, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { checkDeck } from '#rules/deck-rules.ts';
import { FACTION_BY_NATION } from '#rules/factions.ts';
import { legality } from '#rules/insight.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

const codes = realCodes();
const share = codes.filter((c) => c.format === 'share');

describe.skipIf(!hasRealCodes)('real deck codes (../shared/reference/kards/real_deck_codes.json)', () => {
  it('holds share codes to test', () => {
    expect(share.length).toBeGreaterThanOrEqual(20);
  });

  it.each(share.map((c) => [c.key, c] as const))('%s parses to the factions and cards recorded beside it', (_key, real) => {
    const deck = parseDeckCode(real.code);
    expect(deck.main).toBe(FACTION_BY_NATION[real.main]);
    expect(deck.ally).toBe(FACTION_BY_NATION[real.ally]);
    const expected = new Map(real.cards.map((c) => [c.code, c.copies]));
    expect(new Map(deck.cards.map((c) => [c.card_id, c.count]))).toEqual(expected);
    expect(encodeDeckCode(parseDeckCode(encodeDeckCode(deck)))).toBe(encodeDeckCode(deck));
  });

  const storage = codes.filter((c) => c.format === 'client-storage');

  it.each(storage.map((c) => [c.key, c] as const))(
    '%s (client storage form: "~" and an HQ segment) parses to the cards recorded beside it, its canonical code that of its part before "~"',
    (_key, real) => {
      const deck = parseDeckCode(real.code);
      expect(deck.main).toBe(FACTION_BY_NATION[real.main]);
      expect(deck.ally).toBe(FACTION_BY_NATION[real.ally]);
      expect(new Map(deck.cards.map((c) => [c.card_id, c.count]))).toEqual(new Map(real.cards.map((c) => [c.code, c.copies])));
      const before = real.code.slice(0, real.code.indexOf('~'));
      expect(encodeDeckCode(deck)).toBe(encodeDeckCode(parseDeckCode(before)));
    },
  );

  it('a storage form whose tail is damaged is refused where the damage is', () => {
    for (const real of storage) {
      const tilde = real.code.indexOf('~');
      const bar = real.code.lastIndexOf('|');
      const cases: [string, number][] = [
        [`${real.code}x`, real.code.length],
        [real.code.slice(0, -1), real.code.length - 1],
        [real.code.slice(0, bar), bar],
        [`${real.code.slice(0, bar)};${real.code.slice(bar)}`, bar],
        [`${real.code.slice(0, tilde)}~~${real.code.slice(tilde + 1)}`, tilde + 1],
        [`${real.code.slice(0, bar + 1)}-${real.code.slice(bar + 2)}`, bar + 1],
      ];
      for (const [code, offset] of cases) {
        const error = (() => {
          try {
            parseDeckCode(code);
          } catch (e) {
            return e;
          }
        })();
        expect(error, code).toBeInstanceOf(DeckCodeError);
        expect((error as DeckCodeError).offset, code).toBe(offset);
      }
    }
  });
});

describe.skipIf(!hasRealCodes || !hasRealCatalogue)('real deck codes against the real catalogue (cards.json)', () => {
  const catalogue = hasRealCatalogue ? loadCatalogueFile(REAL_CATALOGUE_FILE) : undefined;

  it('every code is valid, or invalid exactly for the ids the catalogue lacks', () => {
    if (!catalogue) throw new Error('no catalogue');
    const rows: string[] = [];
    for (const real of share) {
      const deck = parseDeckCode(real.code);
      const details = checkDeck(deck, catalogue);
      const missing = deck.cards.map((c) => c.card_id).filter((id) => catalogue.get(id) === undefined);
      const unknown = details.filter((d) => d.code === 'unknown_card').map((d) => d.message.split(' ')[0]);
      expect(unknown.sort(), real.key).toEqual(missing.sort());
      const others = details.filter((d) => d.code !== 'unknown_card').map((d) => d.code);
      expect(others, real.key).toEqual(deck.cards.length === 0 ? ['deck_size'] : []);
      rows.push(
        `${real.key.padEnd(26)} ${details.length === 0 ? 'valid' : `invalid: ${details.map((d) => (d.code === 'unknown_card' ? d.message.split(' ')[0] : d.code)).join(' ')}`}`,
      );
    }
    console.log(`real codes against cards.json:\n${rows.join('\n')}`);
    // The reference README finds these three share codes fully resolved and legal.
    const valid = rows.filter((r) => r.endsWith(' valid')).map((r) => r.split(' ')[0]);
    expect(valid.sort()).toEqual(['bri-fin', 'jp-usa', 'wc-deck-socialist-tokens']);
  });

  it('every real code (share and storage form) names in its ranked legality exactly the cards cards.json marks reserved', () => {
    if (!catalogue) throw new Error('no catalogue');
    // Read from the file itself, apart from the service's loader.
    const marked = new Set(
      (JSON.parse(readFileSync(REAL_CATALOGUE_FILE, 'utf8')) as { importId: string; reserved: boolean }[])
        .filter((c) => c.reserved && c.importId !== '')
        .map((c) => c.importId),
    );
    expect(marked.size).toBeGreaterThan(400);
    const rows: string[] = [];
    for (const real of codes) {
      const deck = parseDeckCode(real.code);
      const { valid, ranked } = legality(deck, catalogue);
      const expected = deck.cards.map((c) => c.card_id).filter((id) => marked.has(id));
      expect(ranked.reserved_cards, real.key).toEqual(expected);
      expect(ranked.legal, real.key).toBe(valid && expected.length === 0);
      rows.push(`${real.key.padEnd(32)} reserved: ${expected.join(' ') || '-'}`);
    }
    console.log(`ranked legality of the real codes:\n${rows.join('\n')}`);
  });
});
