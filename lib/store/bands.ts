/**
 * Decks like one (contract §13.2): the decks that share a band with it (items/band.ts), a Query of each band's
 * partition (at most `most` items, eventually consistent: half a read unit a 4 KB), and the `all` search entries of
 * those it lists (BatchGetItem, eventually consistent) — the entry is its answer, and a deck no longer public has none.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deck } from '#rules/deck-code.ts';
import type { BandPlace } from '#rules/similar.ts';
import { getItems } from './bulk.ts';
import { documentClient } from './client.ts';
import { BAND, fromBandItem } from './items/band.ts';
import { ALL_FACET, entryKey, type SearchEntry } from './items/search-entry.ts';
import { DECKS, tableName } from './tables.ts';

/**
 * The decks of one band (`place`: the asking deck's, lib/rules/similar.ts bandPlaces): the whole band when it holds
 * at most `most`; a band crowded past that, its `most` members that agree on both probe rows, its `most` that agree
 * on the first, and its first `most` (by probe rows, then id) — the near-copies of a list copied by many among them.
 */
export async function bandMembers(place: BandPlace, most: number): Promise<{ id: string; deck: Deck }[]> {
  const read = async (prefix?: string) =>
    documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: prefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :probes)',
        ExpressionAttributeValues: { ':pk': BAND.pk(place.key), ...(prefix === undefined ? {} : { ':probes': prefix }) },
        Limit: most,
      }),
    );
  const first = await read();
  const pages = [first];
  // Crowded: the members agreeing on the probe rows, most first.
  if (first.LastEvaluatedKey)
    pages.push(...(await Promise.all([...place.probes].reverse().map((probes, k) => read(k === 0 ? `${probes}#` : `${probes}.`)))));
  const members = new Map<string, { id: string; deck: Deck }>();
  for (const page of pages)
    for (const item of page.Items ?? []) {
      const member = fromBandItem(item);
      if (member) members.set(member.id, member);
    }
  return [...members.values()];
}

/** The `all` search entries of decks by id (undefined for a deck that has none: no longer public), in their order. */
export async function publicEntries(ids: readonly string[]): Promise<(SearchEntry | undefined)[]> {
  const items = await getItems(
    ids.map((id) => entryKey(id, ALL_FACET)),
    DECKS,
    false,
  );
  return items as (SearchEntry | undefined)[];
}
