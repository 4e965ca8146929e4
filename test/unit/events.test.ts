/** Events (contract §13.4; lib/rules/events.ts), pure: a submission checked against an event, its deadline, its lock hash. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import type { Card } from '#rules/catalogue.ts';
import type { Deck } from '#rules/deck-code.ts';
import { csvCell, entriesCsv, type ListedEntry, lockHash, poolInstant, submissionsOpen, utcTime } from '#rules/events.ts';
import { submissionIssues } from '#rules/submission.ts';
import { legalDeck, pauperDeck as pauperOf } from '../support/decks.ts';

const demo = demoCatalogue();
const deck = (main: Deck['main'], ally: Deck['ally'], offset = 0): Deck => ({ main, ally, cards: legalDeck(demo, main, ally, 12, offset) });
const pauper = { format: 'pauper', decks_per_player: 2, distinct_mains: true } as const;
const pauperDeck = (main: Deck['main'], ally: Deck['ally']) => pauperOf(demo, main, ally);

describe('a submission checked against its event', () => {
  it('a legal pair of pauper decks of different main nations: nothing to say', () => {
    const pair = [pauperDeck('germany', 'italy'), pauperDeck('soviet', 'usa')];
    expect(pair.every(Boolean)).toBe(true);
    expect(submissionIssues(pauper, pair as Deck[], demo)).toEqual([]);
  });

  it('every failure named: the count, each card out of the format, a main nation twice, a deck broken by the game rules', () => {
    const legal = pauperDeck('germany', 'italy') as Deck;
    // One copy of a standard German card traded for a special or elite German card the deck lacks.
    const rare = demo.cards.find(
      (c) =>
        c.faction === 'germany' && (c.rarity === 'special' || c.rarity === 'elite') && !legal.cards.some((x) => x.card_id === c.card_id),
    ) as Card;
    const traded = legal.cards.findIndex((c) => demo.get(c.card_id)?.faction === 'germany');
    expect(traded).toBeGreaterThanOrEqual(0);
    const special: Deck = {
      ...legal,
      cards: [
        ...legal.cards.flatMap((c, i) => (i !== traded ? [c] : c.count > 1 ? [{ ...c, count: c.count - 1 }] : [])),
        { card_id: rare.card_id, count: 1 },
      ],
    };
    const issues = submissionIssues(pauper, [legal, special], demo);
    expect(issues).toEqual([
      { path: 'decks[1]', code: 'not_in_format', message: expect.stringContaining(rare.card_id) },
      { path: 'decks[1]', code: 'duplicate', message: expect.stringContaining('decks[0]') },
    ]);
    expect(issues[0]?.message).toContain('pauper');
    // Three decks where two are taken, one of 39 cards: the count, and the deck's own rule.
    const short: Deck = { ...legal, main: 'soviet', ally: 'usa', cards: (pauperDeck('soviet', 'usa') as Deck).cards.slice(1) };
    const three = submissionIssues(pauper, [legal, short, pauperDeck('japan', 'usa') ?? legal], demo);
    expect(three[0]).toEqual({ path: 'decks', code: 'too_many', message: 'this event takes exactly 2 decks a player; 3 given' });
    expect(three.some((d) => d.path === 'decks[1]' && d.code === 'deck_size')).toBe(true);
    expect(submissionIssues(pauper, [], demo)).toEqual([
      { path: 'decks', code: 'too_few', message: 'this event takes exactly 2 decks a player; 0 given' },
    ]);
  });

  it('standard takes any valid deck; mains may repeat when the event allows it', () => {
    const a = deck('germany', 'italy');
    const b = deck('germany', 'japan', 3);
    expect(submissionIssues({ format: 'standard', decks_per_player: 2, distinct_mains: false }, [a, b], demo)).toEqual([]);
    expect(submissionIssues({ format: 'standard', decks_per_player: 2, distinct_mains: true }, [a, b], demo).map((d) => d.code)).toEqual([
      'duplicate',
    ]);
    // Singleton and monodeck name their own rule's cards.
    const single = submissionIssues({ format: 'singleton', decks_per_player: 1, distinct_mains: false }, [a], demo);
    expect(single.length).toBe(a.cards.filter((c) => c.count > 1).length);
    const mono = submissionIssues({ format: 'monodeck', decks_per_player: 1, distinct_mains: false }, [a], demo);
    expect(mono.length).toBeGreaterThan(0);
    for (const d of mono) expect(d.code).toBe('not_in_format');
  });
});

describe('deadline and lock', () => {
  it('submissions are taken until the deadline, not at it', () => {
    const deadline = '2026-12-01T12:00:00Z';
    expect(submissionsOpen(deadline, new Date('2026-12-01T11:59:59.999Z'))).toBe(true);
    expect(submissionsOpen(deadline, new Date('2026-12-01T12:00:00.000Z'))).toBe(false);
    // An offset is the same instant.
    expect(submissionsOpen('2026-12-01T13:00:00+01:00', new Date('2026-12-01T12:00:00.000Z'))).toBe(false);
    // A deadline that is no time is an error, never an event closed for good.
    for (const bad of ['', 'tomorrow', '2026-12-01T25:00:00Z']) expect(() => submissionsOpen(bad, new Date())).toThrow(RangeError);
  });

  it('the lock hash is what a player works out from the codes they sent, in their order', () => {
    const codes = ['%%45|2H2B;2C;2D', '%%56|3A;3B;3C'];
    expect(lockHash(codes)).toBe(createHash('sha256').update('%%45|2H2B;2C;2D\n%%56|3A;3B;3C').digest('hex'));
    expect(lockHash(codes)).not.toBe(lockHash([...codes].reverse()));
    expect(lockHash(codes)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("a pool's date", () => {
  it('is read at its end (UTC): a version published that day is its pool', () => {
    expect(poolInstant('2026-12-01').toISOString()).toBe('2026-12-01T23:59:59.999Z');
    for (const bad of ['', '2026-12', '2026-12-01T00:00:00Z', '2026-13-01', 'yesterday'])
      expect(() => poolInstant(bad)).toThrow(RangeError);
  });
});

/** RFC 4180, read by a state machine of its own (the test's, not the module's). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  expect(quoted).toBe(false);
  expect(cell).toBe('');
  return rows;
}

describe("an event's lists as CSV", () => {
  const entry = (name: string, decks = 2): ListedEntry => ({
    user_id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
    display_name: name,
    decks: Array.from({ length: decks }, (_, i) => ({
      deck_code: `%%4${i}|2H;2B;2C`,
      main_faction: 'germany',
      ally_faction: 'italy',
      archetype: i === 0 ? { name: 'Germany · A, "B"' } : null,
    })),
    lock_hash: 'ab'.repeat(32),
    checked_under_current_rules: true,
    disqualified: null,
  });

  it('a header, then a row a player, every cell read back as written (a formula shown, never run)', () => {
    const text = entriesCsv([entry('Ann'), { ...entry('=HYPERLINK("x")', 1), disqualified: { reason: 'late,\r\nsecond line' } }], 2);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ann, other] = parseCsv(text);
    expect(header).toEqual([
      'player',
      'user_id',
      ...['1', '2'].flatMap((n) => ['code', 'main_faction', 'ally_faction', 'archetype'].map((c) => `deck_${n}_${c}`)),
      'lock_hash',
      'checked_under_current_rules',
      'disqualified',
    ]);
    expect(ann).toEqual([
      'Ann',
      entry('Ann').user_id,
      '%%40|2H;2B;2C',
      'germany',
      'italy',
      'Germany · A, "B"',
      '%%41|2H;2B;2C',
      'germany',
      'italy',
      '',
      'ab'.repeat(32),
      'yes',
      '',
    ]);
    expect(other?.[0]).toBe(`'=HYPERLINK("x")`);
    expect(other?.slice(6, 10)).toEqual(['', '', '', '']);
    expect(other?.at(-1)).toBe('late,\r\nsecond line');
  });

  it('any text in a cell: read back as it was, or led by an apostrophe when a spreadsheet would run it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const [[read]] = parseCsv(`${csvCell(value)}\r\n`) as [[string]];
        return /^[=+\-@\t\r]/.test(value) ? read === `'${value}` : read === value;
      }),
    );
  });
});

describe('an RFC 3339 time, as an event keeps it', () => {
  it('any instant written in UTC or with an offset reads back as that instant, in UTC with milliseconds', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (at, offsetMinutes) => {
          expect(utcTime(at.toISOString())).toBe(at.toISOString());
          // The same instant written with an offset: local wall time, then ±hh:mm (whole seconds: RFC 3339 keeps fractions too).
          const whole = new Date(Math.floor(at.getTime() / 1000) * 1000);
          const local = new Date(whole.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const written = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(utcTime(written)).toBe(whole.toISOString());
        },
      ),
    );
  });

  it('a day or an hour that does not exist is none', () => {
    for (const s of [
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-12-31T23:59:60Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00+01:60',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00:00',
    ])
      expect(utcTime(s), s).toBeUndefined();
    expect(utcTime('2028-02-29t12:00:00.5z')).toBe('2028-02-29T12:00:00.500Z');
  });
});
