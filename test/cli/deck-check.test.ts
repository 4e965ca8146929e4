import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { deckctl as run } from '../support/deckctl.ts';
import { legalCode } from '../support/decks.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../support/shared.ts';

const deckctl = (args: string[], env: Record<string, string> = {}) => run(args, { CATALOGUE_FILE: '', ...env });

describe('deckctl deck check', () => {
  it('a legal demo deck: exit 0 and the contract fields', async () => {
    const code = legalCode(demoCatalogue(), 'japan', 'anzac');
    const r = await deckctl(['deck', 'check', code, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: true,
      deck_code: code,
      name: 'Japan / ANZAC',
      main_faction: 'japan',
      ally_faction: 'anzac',
      cards_snapshot: expect.any(Array),
      errors: [],
    });
  });

  it('a kards.com deck-builder link and the URL form: the same answer as the code (issue 56)', async () => {
    const code = legalCode(demoCatalogue(), 'soviet', 'usa');
    const direct = await deckctl(['deck', 'check', code, '--json']);
    expect(direct.status, direct.stderr).toBe(0);
    const url = code.slice(2).replace('|', '-').replaceAll(';', '-');
    for (const form of [`https://www.kards.com/decks/deck-builder?hash=${encodeURIComponent(code)}`, url]) {
      const r = await deckctl(['deck', 'check', form, '--json']);
      expect([form, r.status]).toEqual([form, 0]);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(direct.stdout));
    }
  });

  it('an invalid code: exit 1 with the located error', async () => {
    const r = await deckctl(['deck', 'check', '%%45|zz', '--json']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ valid: false, name: null, cards_snapshot: null });
    expect(out.errors).toEqual([{ path: 'deck_code', code: 'invalid_deck_code', message: expect.stringContaining('offset 7') }]);
  });

  it('a usage error: exit 2', async () => {
    expect((await deckctl(['deck', 'check'])).status).toBe(2);
    expect((await deckctl(['nothing'])).status).toBe(2);
    expect((await deckctl(['deck', 'check', 'x', '--bogus'])).status).toBe(2);
  });

  describe.skipIf(!hasRealCatalogue)('with CATALOGUE_FILE = the real catalogue', () => {
    const env = { CATALOGUE_FILE: REAL_CATALOGUE_FILE };
    it('a real Soviet Union / United States deck is valid', async () => {
      const r = await deckctl(['deck', 'check', '%%45|o0o5j4;bQbJbKnW7Kbs;7X9AiRbN;847Fo1', '--json'], env);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, name: 'Soviet Union / United States', errors: [] });
    });

    it('a real code with cards newer than the catalogue: unknown_card for exactly those ids', async () => {
      const r = await deckctl(['deck', 'check', '%%36|5C636Bzn;2h2l5z6XEagJnNnQp9tKwh;7a7eg3;2p', '--json'], env);
      expect(r.status).toBe(1);
      const { errors } = JSON.parse(r.stdout) as { errors: { code: string; message: string }[] };
      expect(errors.map((e) => e.code)).toEqual(['unknown_card', 'unknown_card', 'unknown_card']);
      expect(errors.map((e) => e.message.split(' ')[0]).sort()).toEqual(['Ea', 'tK', 'zn']);
    });
  });
});
