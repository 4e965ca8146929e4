/**
 * `deckctl catalogue refresh [--endpoint URL] [--json] [--aws] [--allow-removals]` (contract §11.5, §12.5): the
 * scheduled refresh (lib/workers/catalogue-refresh.ts) run now — against the local store, or with --aws the deployed
 * one — so that an operator need not wait for the day's run. A version that drops cards is held until a second
 * refresh agrees; --allow-removals publishes it at once. Exit 0 published or unchanged, 1 refused or held (nothing
 * published).
 */
import { parseArgs } from 'node:util';
import { refreshCatalogue } from '#workers/catalogue-refresh.ts';
import { useStore } from './accounts.ts';
import { UsageError } from './usage.ts';

export async function catalogueRefresh(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { endpoint: { type: 'string' }, json: { type: 'boolean' }, aws: { type: 'boolean' }, 'allow-removals': { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError('catalogue refresh takes no positional argument');
  useStore(values.aws);
  const refreshed = await refreshCatalogue({
    ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    allowRemovals: values['allow-removals'] === true,
  });
  console.log(
    values.json
      ? JSON.stringify(refreshed, null, 2)
      : refreshed.published
        ? `published catalogue ${refreshed.version} (${refreshed.cards} cards, named in ${refreshed.languages.join(', ')}) over ${refreshed.previous}: the functions use it within a minute`
        : `the catalogue is unchanged (${refreshed.version}): nothing published`,
  );
  return 0;
}
