/**
 * `deckctl archetypes check` as an operator runs it (contract §13.3), with the real catalogue of ../shared
 * (CATALOGUE_FILE) and a bulk decks file of its real codes (gzip NDJSON, as the daily export writes it): the starter
 * rules (the rules in use) classify them; a proposed file's changes are listed deck by deck; a file naming a card
 * the catalogue lacks is refused with its line; two rules of one priority taking a deck fail the check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { FACTION_BY_NATION } from '#rules/factions.ts';
import { code } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

const dir = mkdtempSync(join(tmpdir(), 'archetypes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STARTER = JSON.parse(readFileSync('lib/archetypes/2026-05.json', 'utf8')) as {
  period: string;
  archetypes: Record<string, unknown>[];
};
const env = { CATALOGUE_FILE: REAL_CATALOGUE_FILE };
const rulesFile = (name: string, archetypes: Record<string, unknown>[]) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ period: '2026-06', archetypes }, null, 2));
  return file;
};

describe.skipIf(!hasRealCatalogue || !hasRealCodes)('deckctl archetypes check', () => {
  const bulk = join(dir, 'decks.ndjson.gz');
  const codes = realCodes();
  // Each real code as a bulk line, under a share slug of its own (12 letters and digits, as the export's).
  const slugOf = (key: string) => `r${String(codes.findIndex((c) => c.key === key)).padStart(11, '0')}`;
  writeFileSync(
    bulk,
    gzipSync(
      codes
        .map((r) =>
          JSON.stringify({
            share_slug: slugOf(r.key),
            main_faction: FACTION_BY_NATION[r.main],
            ally_faction: FACTION_BY_NATION[r.ally],
            cards: r.cards.map((c) => ({ card_id: c.code, count: c.copies })),
          }),
        )
        .join('\n'),
    ),
  );

  it('the rules in use, against a bulk file: each rule’s decks, the unclassified, none taken twice', async () => {
    const r = await deckctl(['archetypes', 'check', '--bulk', bulk, '--json'], env);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.decks).toBe(codes.length);
    const taken = Object.fromEntries(report.byRule.map((a: { id: string; decks: number }) => [a.id, a.decks]));
    expect(Object.keys(taken)).toEqual(STARTER.archetypes.map((a) => a.id));
    for (const n of Object.values(taken)) expect(n).toBeGreaterThanOrEqual(1);
    expect(report.classified).toBe((Object.values(taken) as number[]).reduce((a, b) => a + b, 0));
    expect(report.unclassified.decks).toBe(codes.length - report.classified);
    expect(report.byRule.find((a: { id: string }) => a.id === 'japan-war-machine').examples).toEqual([slugOf('jp-usa')]);
    expect(report.twice).toEqual({ decks: 0, examples: [] });
    expect(report.changed).toEqual({ decks: 0, examples: [] });
    const text = await deckctl(['archetypes', 'check', '--bulk', bulk], env);
    expect(text.stdout).toContain('japan-war-machine: ');
    expect(text.stdout).toMatch(/unclassified: \d+ \(/);
  });

  it("a proposed file: the decks it moves, each from the rules in use's archetype to its own", async () => {
    // Without the War Machine rule, jp-usa leaves its archetype (no other rule of the file takes it).
    const proposed = rulesFile(
      'proposed.json',
      STARTER.archetypes.filter((a) => a.id !== 'japan-war-machine'),
    );
    const r = await deckctl(['archetypes', 'check', '--rules', proposed, '--bulk', bulk, '--json'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).changed).toEqual({ decks: 1, examples: [{ deck: slugOf('jp-usa'), from: 'japan-war-machine', to: null }] });
  });

  it('refuses a file naming a card the catalogue lacks, naming its line; fails when two rules of one priority take a deck', async () => {
    const unknown = rulesFile('unknown.json', [{ ...STARTER.archetypes[0], holds: [{ card: 'ZZ', min: 1 }] }]);
    const line =
      readFileSync(unknown, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"ZZ"')) + 1;
    const refused = await deckctl(['archetypes', 'check', '--rules', unknown, '--bulk', bulk], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${unknown}:${line}: japan-war-machine names the card ZZ, which the catalogue does not hold`);
    const tied = rulesFile('tied.json', [
      ...STARTER.archetypes,
      { ...STARTER.archetypes[0], id: 'japan-war-machine-again', names: { en: 'Japan · The War Machine, again' } },
    ]);
    const twice = await deckctl(['archetypes', 'check', '--rules', tied, '--bulk', bulk], env);
    expect(twice.status).toBe(1);
    expect(twice.stdout).toContain(
      `taken by two rules of one priority: 1\n    ${slugOf('jp-usa')} (japan-war-machine, japan-war-machine-again)`,
    );
  });

  it('names the line of a bulk line that is not a deck, and a gzip cut short; an empty --bulk is a usage error', async () => {
    const lines = (extra: string) => {
      const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.ndjson`);
      writeFileSync(
        file,
        [JSON.stringify({ share_slug: slugOf('jp-usa'), main_faction: 'japan', ally_faction: 'usa', cards: [] }), extra].join('\n'),
      );
      return file;
    };
    for (const [extra, said] of [
      ['this is not json', 'not JSON'],
      ['null', 'not a deck'],
      [
        JSON.stringify({ share_slug: 'aaaaaaaaaaaa', main_faction: 'japan', ally_faction: 'usa', cards: [{ card_id: '7l', count: '1' }] }),
        'not a deck: cards.0.count',
      ],
      [JSON.stringify({ share_slug: 'aaaaaaaaaaaa', main_faction: 'Japan', ally_faction: 'usa', cards: [] }), 'not a deck: main_faction'],
      [JSON.stringify({ share_slug: 'evil\u001b[2J', main_faction: 'japan', ally_faction: 'usa', cards: [] }), 'not a deck: share_slug'],
    ] as const) {
      const file = lines(extra);
      const r = await deckctl(['archetypes', 'check', '--bulk', file], env);
      expect([r.status, r.stderr.trim()]).toEqual([1, expect.stringMatching(new RegExp(`^deckctl: ${file}:2: ${said}`))]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const cut = join(dir, 'cut.ndjson.gz');
    writeFileSync(cut, readFileSync(bulk).subarray(0, 200));
    const r = await deckctl(['archetypes', 'check', '--bulk', cut], env);
    expect([r.status, r.stderr]).toEqual([1, expect.stringMatching(/^deckctl: .*cut\.ndjson\.gz \(gzip\): could not be read/)]);
    expect((await deckctl(['archetypes', 'check', '--bulk', ''], env)).status).toBe(2);
  });

  it('checks a proposal when the rules in use no longer read against the catalogue (the proposal may be their fix)', async () => {
    const catalogueWithout = join(dir, 'cards-without-bK.json');
    const cards = JSON.parse(readFileSync(REAL_CATALOGUE_FILE, 'utf8')) as { importId: string }[];
    writeFileSync(catalogueWithout, JSON.stringify(cards.filter((c) => c.importId !== 'bK')));
    const fix = rulesFile(
      'fix.json',
      STARTER.archetypes.filter((a) => a.id !== 'japan-war-machine'),
    );
    const r = await deckctl(['archetypes', 'check', '--rules', fix, '--bulk', bulk, '--json'], { CATALOGUE_FILE: catalogueWithout });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.in_use_unread).toMatch(/japan-war-machine names the card bK, which the catalogue does not hold/);
    expect(report.decks).toBe(codes.length);
  });
});

describe('deckctl archetypes check on a fresh checkout (the demo catalogue)', () => {
  it('checks the demo rules by default: a deck of the demo catalogue that holds a rule’s cards is classified', async () => {
    const bulk = join(dir, 'demo-decks.ndjson');
    const line = (slug: string, deckCode: string) => {
      const deck = parseDeckCode(deckCode);
      return JSON.stringify({ share_slug: slug, main_faction: deck.main, ally_faction: deck.ally, cards: deck.cards });
    };
    writeFileSync(bulk, [line('demo00000001', code('soviet', 'usa', 0)), line('demo00000002', code('japan', 'usa', 0))].join('\n'));
    const r = await deckctl(['archetypes', 'check', '--bulk', bulk, '--json'], { CATALOGUE_FILE: '' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect([report.decks, report.classified, report.unclassified.examples]).toEqual([2, 1, ['demo00000002']]);
    expect(report.byRule.find((a: { id: string }) => a.id === 'soviet-grey-rifles-thistle')?.examples).toEqual(['demo00000001']);
  });
});
