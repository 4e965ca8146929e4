/**
 * GET /api/v1/meta/factions — the main/ally pairs of the public decks and their most used tags (contract
 * §10.3), from the figures the store-change worker keeps (lib/store/plays.ts): one item and one Query of
 * the index of tags by rank (the first 50), whatever the library's size or its number of tags.
 */
import { endpoint } from '#http/types.ts';
import { PLAYS_ROUTES as R } from '#routes/plays.ts';
import { factionFigures } from '#rules/plays-shown.ts';
import { documentClient } from '#store/client.ts';
import { readFactions } from '#store/plays.ts';

export const readMetaFactions = endpoint(R.readMetaFactions, { init: [documentClient] }, async () => {
  const { decks, as_of, counts, tags } = await readFactions();
  return { data: factionFigures(decks, counts.pairs, tags), meta: { decks, as_of } };
});
