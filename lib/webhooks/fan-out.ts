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
import { deliveryBody, deliveryIdOf, passesFilters, WEBHOOK_LIMITS, type WebhookEvent } from '#rules/webhooks.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { atMost } from '#store/at-most.ts';
import { fromItem } from '#store/items/deck.ts';
import { entriesOf, type SearchEntry } from '#store/items/search-entry.ts';
import type { StoredDelivery, StoredHook } from '#store/items/webhook.ts';
import { putDelivery, subscribersOf } from '#store/webhooks.ts';
import { sendDelivery } from './queue.ts';

type DeckEvent = Extract<WebhookEvent, `deck.${string}`>;
type Image = Record<string, unknown>;

/** A deck item's change (its images before and after, stored items) as a webhook event, or none. */
export function deckEventOf(before: Image | undefined, after: Image | undefined): DeckEvent | undefined {
  const was = before?.visibility === 'public';
  const is = after?.visibility === 'public';
  if (!was && is) return 'deck.published';
  if (was && !is) return 'deck.unpublished';
  if (!was || !is) return undefined;
  const moved = (field: string) => JSON.stringify(before?.[field] ?? null) !== JSON.stringify(after?.[field] ?? null);
  return moved('deck_code') || moved('guide') || moved('guide_description') ? 'deck.updated' : undefined;
}

/** A change to deliver: its event, its payload's data, what the filters see (a deck's), and what makes it one change. */
export interface Change {
  type: WebhookEvent;
  data: unknown;
  /** The deck as search sees it (for the filters); none for an event of no deck (any filter passes it). */
  filtered?: SearchEntry & { archetype_id?: string; tags: string[]; search_text: string; cards: string[] };
  /** What makes it one change (a stream record's sequence number): its deliveries' ids are made of it. */
  seed: string;
  at: Date;
}

/** The change a deck item's images make, or none: its payload the deck as search lists it, its code and links. */
export function deckChange(
  before: Image | undefined,
  after: Image | undefined,
  seed: string,
  at: Date,
  origin: string,
): Change | undefined {
  const type = deckEventOf(before, after);
  if (!type) return undefined;
  const deck = fromItem((type === 'deck.unpublished' ? before : after) as Image);
  const [entry] = entriesOf(deck);
  if (!entry) return undefined;
  const filtered = entry as unknown as NonNullable<Change['filtered']>;
  const slug = deck.share_slug;
  if (type === 'deck.unpublished') return { type, data: { share_slug: slug }, filtered, seed, at };
  const links = {
    page: `${origin}${SHARE_ROUTES.readSharePage.path.replace('{share_slug}', slug)}`,
    api: `${origin}${PUBLIC_ROUTES.readSharedDeck.path.replace('{share_slug}', slug)}`,
  };
  return { type, data: { deck: { ...searchItem(filtered), deck_code: deck.deck_code, links } }, filtered, seed, at };
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
    const hooks = ((await subscribers.get(change.type)) ?? []).filter((h) => !change.filtered || passesFilters(change.filtered, h.filters));
    if (hooks.length === 0) continue;
    const body = bodyOf(change);
    await atMost(AT_ONCE, hooks, async (hook) => {
      const delivery: StoredDelivery = {
        delivery_id: deliveryIdOf(change.at.getTime(), `${change.seed}#${hook.webhook_id}`),
        webhook_id: hook.webhook_id,
        user_id: hook.user_id,
        type: change.type,
        body,
        status: 'pending',
        retries: 0,
        attempts: [],
        next_try: change.at.toISOString(),
        created_at: change.at.toISOString(),
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
