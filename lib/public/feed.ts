/**
 * GET /api/v1/decks/feed.atom — the newest public decks a search's filters keep, as an Atom feed (contract §13.5):
 * search's partitions and filters on its read budget (lib/public/search.ts), newest made first, each entry read with
 * its cards for its summary (nations, kredit curve, code). No key and no view counted, so the edge keeps it for as long
 * as a list naming decks may be kept (routes/cache-lifetimes.ts deckList); its ETag is that of its text.
 */
import { createHash } from 'node:crypto';
import { catalogue } from '#catalogue/load.ts';
import { validators } from '#http/cache.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { REFERENCE_ROUTES } from '#routes/reference.ts';
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
/** The feed's own parameters in one order (their declaration's), so that its id and self link name a feed one way. */
const PARAMS = Object.keys(R.readDeckFeed.query.entries) as (keyof typeof R.readDeckFeed.query.entries)[];
const LANGUAGE = 'en';
const EMPTY_FEED_UPDATED = '1970-01-01T00:00:00.000Z';
/** The page for people a feed links (rel="alternate"): the API's reference, which says what a feed's filters are. */
const REFERENCE_PAGE = REFERENCE_ROUTES.docsPage.path;
/** The namespace of the feeds' name-based UUIDs (RFC 9562 §5.5: a UUID of its own, fixed). */
const FEED_NAMESPACE = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607';

/** A name-based (SHA-1) UUID, version 5 (RFC 9562 §5.5), of a name in the feeds' namespace. */
function nameUuid(name: string): string {
  const ns = Buffer.from(FEED_NAMESPACE.replaceAll('-', ''), 'hex');
  const b = createHash('sha1').update(ns).update(name).digest().subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

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
    // One line, its parts set apart: a reader may fold a text summary's line breaks (RFC 4287 §3.1.1.1).
    summary: [nations, ...(item.archetype ? [`Archetype: ${item.archetype.name}`] : []), `Guide: ${item.system}`, ...facts].join(' · '),
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
  // The feed's parameters one way: in one order, repeated values sorted, the default limit left out.
  const query = new URLSearchParams();
  for (const name of PARAMS) for (const value of [req.query[name] ?? []].flat().map(String).sort()) query.append(name, value);
  if (limit === FEED_ENTRIES) query.delete('limit');
  const canonical = `${FEED_PATH}${query.size ? `?${query}` : ''}`;
  const self = `${origin}${canonical}`;
  const entries = items.map((e) => entryOf(e, origin));
  const described = [...query].filter(([name]) => name !== 'limit').map(([name, value]) => `${name}=${value}`);
  const body = atomFeed({
    // Permanent whatever host serves it (RFC 4287 §4.2.6): a name-based UUID of the feed's canonical path and query.
    id: `urn:uuid:${nameUuid(canonical)}`,
    title: `Deck Library: public decks${described.length ? ` (${described.join(', ')})` : ''}`,
    subtitle: 'The newest public KARDS decks of Deck Library that match, newest first.',
    self,
    alternate: `${origin}${REFERENCE_PAGE}`,
    // A feed with no entry says the epoch: its text, and so its ETag, stay the same while it stays empty.
    updated: entries.reduce((newest, x) => (x.updated > newest ? x.updated : newest), entries[0]?.updated ?? EMPTY_FEED_UPDATED),
    author: 'Deck Library',
    generator: { name: 'Deck Library', uri: `${origin}/` },
    entries,
  });
  const { headers, notModified } = validators(req, body);
  if (notModified) return { status: 304, data: undefined, headers };
  return { data: undefined, headers, raw: { contentType: R.readDeckFeed.success.contentType, body } };
});
