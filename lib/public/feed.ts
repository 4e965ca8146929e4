/**
 * GET /api/v1/decks/feed.atom — the newest public decks a search's filters keep, as an Atom feed (contract §13.5):
 * search's partitions and filters on its read budget (lib/public/search.ts), newest made first, each entry read with
 * its cards for its summary (nations, kredit curve, code). No key and no view counted, so the edge keeps it for as long
 * as a list naming decks may be kept (routes/cache-lifetimes.ts deckList); its ETag is that of its text.
 */
import { catalogue } from '#catalogue/load.ts';
import { validators } from '#http/cache.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { SEARCH_ROUTES as R } from '#routes/search.ts';
import { encodeDeckCode } from '#rules/deck-code.ts';
import { factionName } from '#rules/faction-names.ts';
import { deckStats } from '#rules/insight.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { FEED_ENTRIES } from '#shapes/queries.ts';
import { type AtomEntry, atomFeed } from '#share/atom.ts';
import { documentClient } from '#store/client.ts';
import { type CardedEntry, deckOfEntry } from '#store/items/search-entry.ts';
import { searchEntries } from '#store/search-query.ts';
import { deckFilters, keeps, searchBudget } from './search.ts';

const FEED_PATH = R.readDeckFeed.path;
/** The feed's own parameters in one order, so that its id and self link name a feed one way. */
const PARAMS = ['q', 'main_faction', 'ally_faction', 'tag', 'archetype', 'card', 'exclude_card', 'format', 'limit'] as const;
const LANGUAGE = 'en';

/** One deck as an entry: its public fields, and from its cards its nations, kredit curve and code. */
function entryOf(e: CardedEntry, origin: string): AtomEntry {
  const item = searchItem(e);
  const deck = deckOfEntry(e);
  const nations = `${factionName(item.main_faction, LANGUAGE)} with ${factionName(item.ally_faction, LANGUAGE)}`;
  const facts = deck
    ? (() => {
        const curve = Object.entries(deckStats(deck, catalogue()).by_kredits).map(([k, n]) => `${k}K×${n}`);
        return [`Kredits: ${curve.join(', ')}`, `Code: ${encodeDeckCode(deck)}`];
      })()
    : [];
  return {
    id: `urn:uuid:${item.id}`,
    title: item.name,
    updated: item.updated_at,
    published: item.created_at,
    author: item.author.display_name,
    link: `${origin}/d/${item.share_slug}`,
    summary: [nations, ...(item.archetype ? [`Archetype: ${item.archetype.name}`] : []), `Guide: ${item.system}`, ...facts].join('\n'),
    categories: [...item.tags, ...(item.archetype ? [item.archetype.name] : [])],
  };
}

export const readDeckFeed = endpoint(R.readDeckFeed, { init: [catalogue, documentClient] }, async (req) => {
  const { limit, format } = req.query;
  const { facet, rest } = deckFilters(req.query);
  const keep = keeps({ format, missingMax: 0 });
  const { items } = await searchEntries({
    facet,
    sort: 'date',
    filters: rest,
    limit,
    skip: 0,
    budget: searchBudget(limit),
    keep,
    carded: true,
  });
  const origin = originOf(req);
  const query = new URLSearchParams();
  for (const name of PARAMS) for (const value of [req.query[name] ?? []].flat()) query.append(name, String(value));
  if (limit === FEED_ENTRIES) query.delete('limit');
  const self = `${origin}${FEED_PATH}${query.size ? `?${query}` : ''}`;
  const entries = items.map((e) => entryOf(e, origin));
  const described = [...query].filter(([name]) => name !== 'limit').map(([name, value]) => `${name}=${value}`);
  const body = atomFeed({
    id: self,
    title: `Deck Library: public decks${described.length ? ` (${described.join(', ')})` : ''}`,
    subtitle: 'The newest public KARDS decks of Deck Library that match, newest first.',
    self,
    alternate: `${origin}/`,
    updated: entries.reduce((newest, x) => (x.updated > newest ? x.updated : newest), entries[0]?.updated ?? new Date().toISOString()),
    author: 'Deck Library',
    generator: { name: 'Deck Library', uri: `${origin}/` },
    entries,
  });
  const { headers, notModified } = validators(req, body);
  if (notModified) return { status: 304, data: undefined, headers };
  return { data: undefined, headers, raw: { contentType: R.readDeckFeed.success.contentType, body } };
});
