/**
 * `deckctl search reindex [--json] [--aws]`: writes every public deck's search entries as this version
 * of the service defines them — after an upgrade that indexes more (card entries, contract §8.5), so
 * that decks stored before it are found like new ones. Safe to run while the API serves: each deck is
 * rewritten only while it is still at the version read, and running it twice changes nothing more.
 */
import { parseArgs } from 'node:util';
import { atMost } from '#store/at-most.ts';
import { allPublicDecks, reindexDeck } from '#store/decks.ts';
import { useStore } from './accounts.ts';

const DECKS_AT_ONCE = 8;

export async function searchReindex(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const tally = { decks: 0, rewritten: 0, changed_meanwhile: 0 };
  // A few decks at a time, as the scan yields them: a large table in minutes, never a flood.
  await atMost(DECKS_AT_ONCE, allPublicDecks(), async (deck) => {
    tally.decks++;
    if ((await reindexDeck(deck)) === 'ok') tally.rewritten++;
    else tally.changed_meanwhile++;
  });
  console.log(
    values.json
      ? JSON.stringify(tally)
      : `${tally.decks} public decks: ${tally.rewritten} reindexed, ${tally.changed_meanwhile} changed meanwhile (their own write reindexed them)`,
  );
  return 0;
}
