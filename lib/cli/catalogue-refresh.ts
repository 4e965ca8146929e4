/**
 * `deckctl catalogue refresh [--endpoint URL] [--json] [--aws]` (contract §11.5): the scheduled refresh
 * (lib/workers/catalogue-refresh.ts) run now — against the local store, or with --aws the deployed one — so that
 * an operator need not wait for the day's run. Exit 0 published or unchanged, 1 refused (nothing published).
 */
import { parseArgs } from 'node:util';
import { refreshCatalogue } from '#workers/catalogue-refresh.ts';
import { useStore } from './accounts.ts';
import { UsageError } from './usage.ts';

export async function catalogueRefresh(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { endpoint: { type: 'string' }, json: { type: 'boolean' }, aws: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError('catalogue refresh takes no positional argument');
  useStore(values.aws);
  const refreshed = await refreshCatalogue(values.endpoint ? { endpoint: values.endpoint } : {});
  console.log(
    values.json
      ? JSON.stringify(refreshed, null, 2)
      : refreshed.published
        ? `published catalogue ${refreshed.version} (${refreshed.cards} cards, named in ${refreshed.languages.join(', ')}) over ${refreshed.previous}: the functions use it within a minute`
        : `the catalogue is unchanged (${refreshed.version}): nothing published`,
  );
  return 0;
}
