/**
 * `deckctl meta recount [--json] [--aws]`: counts what the library plays again from the public decks
 * (contract §10.3), prints any figure that had drifted from that count, and writes the count in place of
 * what was stored. At rest the worker's figures equal it (nothing to correct); run it after a restore, or
 * to check. Run it while the library is quiet: a deck changed during it is the worker's to apply after.
 */
import { parseArgs } from 'node:util';
import { recountPlays } from '#store/plays-recount.ts';
import { useStore } from './accounts.ts';

export async function metaRecount(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const { decks, drift, unreadable } = await recountPlays(true);
  if (values.json) console.log(JSON.stringify({ decks, drift, ...(unreadable.length ? { unreadable } : {}) }));
  else {
    console.log(`${decks} public decks counted: ${drift.length === 0 ? 'no drift' : `${drift.length} figures corrected`}`);
    for (const line of drift) console.log(`  ${line}`);
    for (const line of unreadable) console.error(`unreadable: ${line}`);
  }
  return 0;
}
