/**
 * Deliveries made of a change (contract §13.5): a deck item's change, as the store-change worker reads it from the
 * stream, is an event — made public (or created public) `deck.published`; public still, its cards or guide changed
 * `deck.updated`; public no more (private, unlisted, deleted, erased) `deck.unpublished`, its payload the slug alone.
 * Each endpoint the event reaches (its subscriber items) whose filters the deck passes (search's, on the deck as it
 * was public) gets a delivery, written once under an id made of the change and the endpoint — a change seen again
 * makes none more — and sent to the deliveries' queue. Another catalogue version in force (its pointer's change, whoever
 * published it: the daily refresh or `deckctl catalogue refresh`) is `catalogue.published`, to every endpoint taking it. Deliveries are at least once: a receiver tells a repeat by its
 * webhook-id (Standard Webhooks' idempotency advice).
 */
import { PUBLIC_ROUTES } from '#routes/public.ts';
import { SHARE_ROUTES } from '#routes/share.ts';
import { deliveryBody, deliveryIdOf, passesFilters, WEBHOOK_LIMITS, type WebhookEvent, type WebhookFilters } from '#rules/webhooks.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { atMost } from '#store/at-most.ts';
import { fromItem } from '#store/items/deck.ts';
import { entriesOf, type SearchEntry } from '#store/items/search-entry.ts';
import type { StoredDelivery, StoredHook } from '#store/items/webhook.ts';
import { putDelivery, subscribersOf } from '#store/webhooks.ts';
import { sendDelivery } from './queue.ts';

type Image = Record<string, unknown>;
/** A public deck as the filters see it: its `all` search entry. */
type Filtered = SearchEntry & { archetype_id?: string; tags: string[]; search_text: string; cards: string[] };

/** What a deck's change may move, for a subscriber: its content (code, guide) and what its filters test. */
const CONTENT = ['deck_code', 'guide', 'guide_description'] as const;
const FILTERED = ['tags', 'name', 'archetype', 'main_faction', 'ally_faction'] as const;

/** A change to deliver: its event, its payload's data, which endpoints' filters it reaches, and what makes it one change. */
export interface Change {
  type: WebhookEvent;
  data: unknown;
  /** Whether it reaches an endpoint of these filters; none: every endpoint taking its event. */
  reaches?: (filters: WebhookFilters) => boolean;
  /** What makes it one change (a stream record's sequence number and its event): its deliveries' ids are made of it. */
  seed: string;
  /** Its time: its body's timestamp. */
  at: Date;
  /** The change's time as the stream has it (its deliveries' ids: the same when the change is seen again). */
  idAt?: Date;
}

const filteredOf = (image: Image | undefined): Filtered | undefined =>
  image?.visibility === 'public' ? (entriesOf(fromItem(image))[0] as unknown as Filtered | undefined) : undefined;

/**
 * The changes a deck item's images make, for the endpoints they reach — a subscriber sees the public decks its filters
 * keep: one entering its view is `deck.published` to it (made public, or changed into its filters), one leaving it
 * `deck.unpublished` (made private or unlisted, deleted, erased, or changed out of its filters: the slug alone), one
 * staying in it whose code or guide changed `deck.updated`. A fold of its views or likes, or an owner's own order, is none.
 */
export function deckChanges(before: Image | undefined, after: Image | undefined, seed: string, idAt: Date, origin: string): Change[] {
  const was = filteredOf(before);
  const is = filteredOf(after);
  if (!was && !is) return [];
  const moved = (fields: readonly string[]) =>
    fields.some((f) => JSON.stringify(before?.[f] ?? null) !== JSON.stringify(after?.[f] ?? null));
  const contentMoved = moved(CONTENT);
  if (was && is && !contentMoved && !moved(FILTERED)) return [];
  const keeps = (deck: Filtered | undefined, filters: WebhookFilters) => deck !== undefined && passesFilters(deck, filters);
  // The body's time: the deck's own last change (to the millisecond), else (a delete) the stream's.
  const at = after?.updated_at ? new Date(String(after.updated_at)) : idAt;
  const changes: Change[] = [];
  const slug = String((after ?? before)?.share_slug);
  if (is) {
    const deck = fromItem(after as Image);
    const links = {
      page: `${origin}${SHARE_ROUTES.readSharePage.path.replace('{share_slug}', slug)}`,
      api: `${origin}${PUBLIC_ROUTES.readSharedDeck.path.replace('{share_slug}', slug)}`,
    };
    const data = { deck: { ...searchItem(is), deck_code: deck.deck_code, links } };
    changes.push({ type: 'deck.published', data, reaches: (f) => keeps(is, f) && !keeps(was, f), seed: `${seed}#published`, at, idAt });
    if (was && contentMoved)
      changes.push({ type: 'deck.updated', data, reaches: (f) => keeps(is, f) && keeps(was, f), seed: `${seed}#updated`, at, idAt });
  }
  if (was)
    changes.push({
      type: 'deck.unpublished',
      data: { share_slug: slug },
      reaches: (f) => keeps(was, f) && !keeps(is, f),
      seed: `${seed}#unpublished`,
      at,
      idAt,
    });
  return changes;
}

/** The change a catalogue pointer's images make (lib/store/items/catalogue.ts): another version in force, or none. */
export function catalogueChange(before: Image | undefined, after: Image | undefined, seed: string, at: Date): Change | undefined {
  if (!after || after.version === before?.version) return undefined;
  const catalogue = {
    version: String(after.version),
    previous: before?.version === undefined ? null : String(before.version),
    cards: Number(after.cards),
    languages: after.languages,
    published_at: String(after.published_at),
  };
  return { type: 'catalogue.published', data: { catalogue }, seed, at };
}

/** The body of a change, under the Standard Webhooks limit: a deck's guide system left out when it would pass it. */
function bodyOf(change: Change): string {
  const body = deliveryBody(change.type, change.at, change.data);
  if (Buffer.byteLength(body) <= WEBHOOK_LIMITS.bodyBytes) return body;
  const data = change.data as { deck?: Record<string, unknown> };
  return deliveryBody(change.type, change.at, data.deck ? { deck: { ...data.deck, system: '' } } : {});
}

/** Endpoints written at once. */
const AT_ONCE = 8;

/** Each change's deliveries made and sent: one an endpoint its event reaches whose filters keep it. */
export async function fanOut(changes: readonly Change[]): Promise<void> {
  const subscribers = new Map<WebhookEvent, Promise<StoredHook[]>>();
  for (const change of changes) {
    if (!subscribers.has(change.type)) subscribers.set(change.type, subscribersOf(change.type));
    const hooks = ((await subscribers.get(change.type)) ?? []).filter((h) => !change.reaches || change.reaches(h.filters));
    if (hooks.length === 0) continue;
    const body = bodyOf(change);
    const made = new Date().toISOString();
    await atMost(AT_ONCE, hooks, async (hook) => {
      const delivery: StoredDelivery = {
        delivery_id: deliveryIdOf((change.idAt ?? change.at).getTime(), `${change.seed}#${hook.webhook_id}`),
        webhook_id: hook.webhook_id,
        user_id: hook.user_id,
        type: change.type,
        body,
        status: 'pending',
        retries: 0,
        attempts: [],
        next_try: made,
        created_at: made,
        version: 1,
      };
      const message = { user_id: hook.user_id, webhook_id: hook.webhook_id, delivery_id: delivery.delivery_id, version: 1 };
      // Written once; its message sent each time the change is seen (a send lost after the write is not a delivery lost):
      // the worker attempts a version once it has been recorded, so a message for an attempted delivery is dropped.
      await putDelivery(delivery);
      await sendDelivery(message);
    });
  }
}
