/**
 * A submission checked against its event (contract §13.4), pure: each deck valid in the event's card pool, legal in its
 * format, as many as it takes a player, their main nations different when it says so — every failure named (its deck,
 * its card, its rule). Apart from lib/rules/events.ts, so that what only reads an event bundles no deck rules.
 */
import type { Catalogue } from './catalogue.ts';
import type { Deck } from './deck-code.ts';
import { checkDeck } from './deck-rules.ts';
import { at, type Detail, detail } from './details.ts';
import type { EventRules } from './events.ts';
import { factionById } from './factions.ts';
import { formatIssues } from './formats.ts';

/** Where a submission's deck is named in an answer's details: `decks[i]`. */
const deckAt = (i: number) => at('decks', i);

/**
 * Every way a submission breaks the event (none: it is accepted), against the card pool of the event's date: the
 * count of decks, then each deck's game rules and its format's (each card named), then each main nation met before.
 */
export function submissionIssues(event: EventRules, decks: readonly (Deck | undefined)[], pool: Catalogue): Detail[] {
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
    // A deck that could not be read (its own detail said why) counts, and is judged no further.
    if (!deck) return;
    out.push(...checkDeck(deck, pool, { deckPath: deckAt(i) }));
    if (event.format !== 'standard') {
      for (const issue of formatIssues(deck, event.format, pool)) {
        out.push(detail(deckAt(i), 'not_in_format', `${issue.card_id}: ${issue.message} (this event is ${event.format})`));
      }
    }
    if (event.distinct_mains) {
      const first = decks.findIndex((d) => d?.main === deck.main);
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
