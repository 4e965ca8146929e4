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
