/**
 * Events (contract §13.4), pure: what an event asks of a submission — each deck valid in the event's card pool, legal
 * in its format, as many as it takes a player, their main nations different when it says so — every failure named
 * (its deck, its card, its rule); when an event still takes submissions; and the hash a locked submission carries
 * (the SHA-256 of its decks' canonical codes, one a line in the order given), which a player can work out from what
 * they sent.
 */
import { createHash } from 'node:crypto';
import type { Catalogue } from './catalogue.ts';
import type { Deck } from './deck-code.ts';
import { checkDeck } from './deck-rules.ts';
import { at, type Detail, detail } from './details.ts';
import { factionById } from './factions.ts';
import { FORMATS, formatIssues } from './formats.ts';
import { DAY_MS } from './week.ts';

/** An event's formats: the game's own rules alone (`standard`), or one of the community's formats on top of them. */
export const EVENT_FORMATS = ['standard', ...FORMATS] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];
/** What a submission is checked against. */
export interface EventRules {
  format: EventFormat;
  decks_per_player: number;
  distinct_mains: boolean;
}

/** Where a submission's deck is named in an answer's details: `decks[i]`. */
const deckAt = (i: number) => at('decks', i);

/**
 * Every way a submission breaks the event (none: it is accepted), against the card pool of the event's date: the
 * count of decks, then each deck's game rules and its format's (each card named), then each main nation met before.
 */
export function submissionIssues(event: EventRules, decks: readonly Deck[], pool: Catalogue): Detail[] {
  const out: Detail[] = [];
  const n = event.decks_per_player;
  if (decks.length !== n) {
    out.push(
      detail(
        'decks',
        decks.length < n ? 'too_few' : 'too_many',
        `this event takes exactly ${n} deck${n === 1 ? '' : 's'} a player; ${decks.length} given`,
      ),
    );
  }
  decks.forEach((deck, i) => {
    out.push(...checkDeck(deck, pool, { deckPath: deckAt(i) }));
    if (event.format !== 'standard') {
      for (const issue of formatIssues(deck, event.format, pool)) {
        out.push(detail(deckAt(i), 'not_in_format', `${issue.card_id}: ${issue.message} (this event is ${event.format})`));
      }
    }
    if (event.distinct_mains) {
      const first = decks.findIndex((d) => d.main === deck.main);
      if (first < i) {
        const nation = factionById(deck.main)?.name ?? deck.main;
        out.push(
          detail(
            deckAt(i),
            'duplicate',
            `${nation} is the main nation of ${deckAt(first)} too: this event's decks have different main nations`,
          ),
        );
      }
    }
  });
  return out;
}

/** Whether an event takes (or withdraws) submissions at an instant: until its deadline, not at it. A deadline that is no time throws. */
export function submissionsOpen(deadline: string, now: Date): boolean {
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) throw new RangeError(`an event's deadline is a time (RFC 3339): ${JSON.stringify(deadline)}`);
  return now.getTime() < end;
}

/** A locked submission's hash: SHA-256 (hex) of its decks' canonical codes, one a line (`\n`-joined), in the order given. */
export const lockHash = (codes: readonly string[]): string => createHash('sha256').update(codes.join('\n'), 'utf8').digest('hex');

/** The instant a pool's date is read at: its end (UTC), so that a version published that day is the day's pool. */
export function poolInstant(day: string): Date {
  const start = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(start)) throw new RangeError(`a pool's date is a day (YYYY-MM-DD): ${JSON.stringify(day)}`);
  return new Date(start + DAY_MS - 1);
}

/** An entry as a list shows it (contract §13.4): the player, their decks, the lock's hash, a disqualification. */
export interface ListedEntry {
  user_id: string;
  display_name: string;
  decks: readonly { deck_code: string; main_faction: string; ally_faction: string; archetype: { name: string } | null }[];
  lock_hash: string | null;
  disqualified: { reason: string } | null;
}

/**
 * A cell of a CSV file (RFC 4180): quoted when it holds a comma, a quote, a line break or space at either end, its
 * quotes doubled; one that a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first: OWASP,
 * "CSV Injection") is led by an apostrophe, so that a display name is shown, never run.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** An event's lists as CSV for bracket tools: a header, then one row a player (CRLF line ends, RFC 4180). */
export function entriesCsv(entries: readonly ListedEntry[], decksPerPlayer: number): string {
  const deckColumns = Array.from({ length: decksPerPlayer }, (_, i) =>
    ['code', 'main_faction', 'ally_faction', 'archetype'].map((c) => `deck_${i + 1}_${c}`),
  ).flat();
  const header = ['player', 'user_id', ...deckColumns, 'lock_hash', 'disqualified'];
  const rows = entries.map((e) => [
    e.display_name,
    e.user_id,
    ...Array.from({ length: decksPerPlayer }, (_, i) => {
      const d = e.decks[i];
      return d ? [d.deck_code, d.main_faction, d.ally_faction, d.archetype?.name ?? ''] : ['', '', '', ''];
    }).flat(),
    e.lock_hash ?? '',
    e.disqualified?.reason ?? '',
  ]);
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
