/**
 * The store-change worker: what must follow a write happens here, driven by the decks table's own
 * change stream — never by a timer in a function that may be frozen, nor by a request that may end
 * first. A batch that fails is handed back from its first unfinished record (batch.ts):
 *   - a like counter changed         → fold its likes (likes.ts)
 *   - a deck's view count changed    → fold its views when due, forget a gone deck's (view-folds.ts)
 *   - a deck item was deleted        → purge its likes and versions (the delete's transaction took the rest)
 *   - a version past the last 100    → drop the oldest (lib/store/versions.ts)
 *   - a deck made public or not, moved to other factions or deleted → its count's marks and the boards
 *     (lib/store/boards.ts)
 *   - a deck published, changed while public or unpublished, another catalogue version in force → the webhooks'
 *     deliveries (lib/webhooks/fan-out.ts)
 *   - a deck changed what it adds to what the library plays (made public or not, its factions, tags or
 *     code, deleted) → bring the figures up to the batch's changed decks, summed (lib/store/plays.ts)
 * Every step is idempotent: a record seen twice changes nothing more.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { boardFacets } from '#rules/boards.ts';
import { contributionOf, sameContribution } from '#rules/plays.ts';
import { dayOf } from '#rules/week.ts';
import { atMost } from '#store/at-most.ts';
import { markListed, type Offered, offeredOf, offerToBoards, unmarkListed } from '#store/boards.ts';
import { catalogueNowKey } from '#store/items/catalogue.ts';
import { DECK } from '#store/items/deck.ts';
import { LIKE_COUNT } from '#store/items/like-count.ts';
import { VERSION } from '#store/items/version.ts';
import { type Listed, slugOfCount, VIEW_COUNT } from '#store/items/view-count.ts';
import { purgeLikes } from '#store/likes.ts';
import { applyPlays } from '#store/plays.ts';
import { purgeVersions, trimVersions } from '#store/versions.ts';
import { type Change, catalogueChange, deckChanges, fanOut } from '#webhooks/fan-out.ts';
import { batchHandler, changesOf, earliestOf, type Image, image, itemName, type Work, workByItem } from './batch.ts';
import { likesMoved } from './likes.ts';
import { movedCount, viewsMoved } from './view-folds.ts';

/** A deck of the batch whose change moves the figures of what the library plays, and its first record. */
interface PlaysChange {
  userId: string;
  deckId: string;
  first: string;
  what: string;
}

/** A deck's listing as a stream image of it shows it: its id and factions while public. */
const listedOf = (deck: Image | undefined): Listed | undefined =>
  deck?.visibility === 'public'
    ? { deck: String(deck.deck_id), main: String(deck.main_faction), ally: String(deck.ally_faction) }
    : undefined;
const sameListing = (a: Listed | undefined, b: Listed | undefined) => a?.deck === b?.deck && a?.main === b?.main && a?.ally === b?.ally;

/** When a record's change was made (the stream's time, seconds), or now. */
const atOf = (record: DynamoDBRecord): Date =>
  new Date(record.dynamodb?.ApproximateCreationDateTime ? record.dynamodb.ApproximateCreationDateTime * 1000 : Date.now());
/** The service's origin, that deliveries link decks on (PUBLIC_URL); none: links are paths. */
const origin = (): string => process.env.PUBLIC_URL ?? '';

/** Counts marked at once. */
const MARKS_AT_ONCE = 8;

/** A deck of the batch made public or not, moved to other factions or deleted: before its changes and after. */
interface ListingChange {
  slug: string;
  was: Listed | undefined;
  is: Listed | undefined;
  deleted: boolean;
  first: string;
  what: string;
}

/**
 * Decks whose listing moved: each count marked with its public deck's id and factions (or the marks taken off),
 * the deck offered to its boards with its counts as they stand, and taken off the boards of the facets it left.
 */
async function listingsMoved(listings: readonly ListingChange[], today = dayOf(Date.now())): Promise<void> {
  const offers: Offered[] = [];
  const leaving: { deck: string; facets: string[] }[] = [];
  await atMost(MARKS_AT_ONCE, listings, async ({ slug, was, is, deleted }) => {
    if (is) offers.push(offeredOf(slug, { ...(await markListed(slug, is)), listed: is }, today));
    else if (!deleted) await unmarkListed(slug);
    if (was) {
      const kept = is ? boardFacets(is.main, is.ally) : [];
      leaving.push({ deck: was.deck, facets: boardFacets(was.main, was.ally).filter((f) => !kept.includes(f)) });
    }
  });
  await offerToBoards(offers, leaving, { today });
}

/** The work a batch of records asks for, in record order, the records of one item together. */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  const plays: PlaysChange[] = [];
  const listings: ListingChange[] = [];
  const published: { change: Change; first: string }[] = [];
  const trims = new Map<string, { first: string; what: string; userId: string; deckId: string; versions: number[] }>();
  const work = workByItem(records, ({ keys, sequence, records: itemRecords }): Work[] => {
    const last = itemRecords.at(-1) as DynamoDBRecord;
    const pk = String(keys.pk);
    const what = itemName(keys);
    if (LIKE_COUNT.owns(pk)) {
      const counter = image(last.dynamodb?.NewImage as Record<string, unknown>);
      if (!counter) return []; // the counter went with its deck
      const slug = pk.slice(LIKE_COUNT.prefix.length);
      return [{ first: sequence, what, run: () => likesMoved(slug, Number(counter.likes ?? 0), Number(counter.changes ?? 0)) }];
    }
    if (VIEW_COUNT.owns(pk)) {
      const moved = movedCount(changesOf(itemRecords));
      return moved ? [{ first: sequence, what, run: () => viewsMoved(slugOfCount(pk), moved) }] : [];
    }
    if (VERSION.owns(pk)) {
      const kept = image(itemRecords.find((r) => r.eventName === 'INSERT')?.dynamodb?.NewImage as Record<string, unknown>);
      if (!kept) return [];
      // A deck's trims in one piece, oldest first: trims of one deck run at once could drop a version
      // a later trim has already taken out of the window, and with it the texts the kept ones read.
      const deck = trims.get(pk) ?? {
        first: sequence,
        what: `the versions of ${pk}`,
        userId: String(kept.user_id),
        deckId: String(kept.deck_id),
        versions: [],
      };
      deck.versions.push(Number(kept.version));
      deck.first = earliestOf([deck.first, sequence]) as string;
      trims.set(pk, deck);
      return [];
    }
    if (pk === catalogueNowKey.pk && keys.sk === catalogueNowKey.sk) {
      // Each version put in force, in order: the webhooks' deliveries (lib/webhooks/fan-out.ts).
      for (const r of itemRecords) {
        const [before, after] = changesOf([r])[0] ?? [];
        const change = catalogueChange(before, after, String(r.dynamodb?.SequenceNumber ?? sequence), atOf(r));
        if (change) published.push({ change, first: sequence });
      }
      return [];
    }
    if (!String(keys.sk).startsWith(DECK.sk)) return [];
    // Folds of likes and views change a deck item too, and nothing it adds to the figures: those are no work.
    const changed = changesOf(itemRecords).some(
      ([before, after]) => !sameContribution(contributionOf(before as never), contributionOf(after as never)),
    );
    if (changed) plays.push({ userId: pk.slice(DECK.prefix.length), deckId: String(keys.sk).slice(DECK.sk.length), first: sequence, what });
    // Made public or not, moved to other factions, deleted: the boards and its count's marks follow (boards.ts).
    const images = changesOf(itemRecords);
    const [was, is] = [listedOf(images[0]?.[0]), listedOf(images.at(-1)?.[1])];
    // Published, changed while public, unpublished: the webhooks' deliveries (lib/webhooks/fan-out.ts).
    for (const change of deckChanges(
      images[0]?.[0],
      images.at(-1)?.[1],
      String(last.dynamodb?.SequenceNumber ?? sequence),
      atOf(last),
      origin(),
    ))
      published.push({ change, first: sequence });
    const listedSlug = String((images.at(-1)?.[1] ?? images[0]?.[0])?.share_slug ?? '');
    if (listedSlug && !sameListing(was, is))
      listings.push({ slug: listedSlug, was, is, deleted: images.at(-1)?.[1] === undefined, first: sequence, what });
    const removed = itemRecords.find((r) => r.eventName === 'REMOVE');
    const deck = image(removed?.dynamodb?.OldImage as Record<string, unknown>);
    if (!removed || !deck) return [];
    const slug = String(deck.share_slug);
    const [userId, deckId] = [String(deck.user_id), String(deck.deck_id)];
    return [
      {
        first: removed.dynamodb?.SequenceNumber ?? sequence,
        what,
        run: async () => void (await Promise.all([purgeLikes(slug), purgeVersions(userId, deckId)])),
      },
    ];
  });
  for (const { first, what, userId, deckId, versions } of trims.values())
    work.push({
      first,
      what,
      run: async () => {
        for (const newest of versions.sort((a, b) => a - b)) await trimVersions(userId, deckId, newest);
      },
    });
  if (listings.length > 0)
    work.push({
      first: earliestOf(listings.map((l) => l.first)) as string,
      what: `the listings of ${listings.length} decks`,
      run: () => listingsMoved(listings),
    });
  if (published.length > 0)
    work.push({
      first: earliestOf(published.map((p) => p.first)) as string,
      what: `the webhook deliveries of ${published.length} changes`,
      run: () => fanOut(published.map((p) => p.change)),
    });
  // One piece for the batch's figures: its decks' changes summed (a burst of creates is one write a figure item a
  // chunk); should it fail for good, each deck's alone, so that only a deck whose change cannot be applied is given up on.
  if (plays.length > 0) {
    const first = earliestOf(plays.map((m) => m.first)) as string;
    work.push({
      first,
      what: `the figures of ${plays.length} decks`,
      run: () => applyPlays(plays),
      parts: () => plays.map((m) => ({ first: m.first, what: m.what, run: () => applyPlays([m]) })),
    });
  }
  return work;
}

/** The store-change worker's handler (functions/store-changes-worker.ts). */
export const handleStoreChanges = batchHandler('storeChanges', workOf);
