/**
 * `deckctl views migrate [--json] [--aws]`: moves the view counts of the legacy buckets into each deck's own
 * count (lib/store/view-migration.ts), once, resumably. `deckctl views check [--repair] [--json] [--aws]`: every
 * public deck's folded views against its count, and the view logs' waiting batches (lib/store/view-check.ts);
 * exit 1 when a deck is outside its bounds (and `--repair` was not given). `deckctl boards build [--json] [--aws]`:
 * builds every leaderboard from every public deck's exact counts (lib/store/boards.ts).
 */
import { parseArgs } from 'node:util';
import { buildBoards } from '#store/boards.ts';
import { checkViews } from '#store/view-check.ts';
import { migrateViewBuckets } from '#store/view-migration.ts';
import { useStore } from './accounts.ts';

export async function viewsMigrate(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const migrated = await migrateViewBuckets();
  console.log(
    values.json
      ? JSON.stringify(migrated)
      : `${migrated.buckets} legacy buckets: ${migrated.moved} decks' counts moved (${migrated.views} views), ${migrated.already} moved before; the buckets deleted`,
  );
  return 0;
}

export async function viewsCheck(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { repair: { type: 'boolean' }, json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const checked = await checkViews(values.repair === true);
  if (values.json) console.log(JSON.stringify(checked));
  else {
    console.log(
      `${checked.decks} public decks: ${checked.drift.length === 0 ? 'views within their bounds' : `${checked.drift.length} outside their bounds${values.repair ? ', folded again' : ''}`}; ${checked.waiting} batches waiting in the view logs`,
    );
    for (const line of checked.drift) console.log(`  ${line}`);
  }
  return checked.drift.length > 0 && !values.repair ? 1 : 0;
}

export async function boardsBuild(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const built = await buildBoards();
  console.log(values.json ? JSON.stringify(built) : `${built.decks} public decks: the boards of views and trending built`);
  return 0;
}
