/**
 * Webhooks (contract §13.5; decks table): an account's endpoints under its key, one small subscriber item an event an
 * endpoint takes (so that a change's fan-out reads only its event's subscribers), and each delivery under its endpoint.
 *   pk WEBHOOK#<user_id>  sk <webhook_id>       { StoredWebhook }
 *   pk WEBHOOK#<user_id>  sk COUNT              { n }   (the account's endpoints, held under WEBHOOK_LIMIT by a condition)
 *   pk HOOKS#<event>      sk <user_id>#<webhook_id> { user_id, webhook_id, filters }   (while the endpoint is enabled)
 *   pk DELIVERY#<webhook_id> sk <delivery_id>   { StoredDelivery, expires_at (TTL) }
 * A delivery's id sorts by its time (newest last), so that a log reads newest first by a reverse Query.
 * Its repository is lib/store/webhooks.ts.
 */
import type { WebhookEvent, WebhookFilters } from '#rules/webhooks.ts';
import { itemKind } from './kind.ts';

export const WEBHOOK = { ...itemKind('WEBHOOK#'), countSk: 'COUNT' };
export const webhookKey = (userId: string, webhookId: string) => ({ pk: WEBHOOK.pk(userId), sk: webhookId });
export const webhookCountKey = (userId: string) => ({ pk: WEBHOOK.pk(userId), sk: WEBHOOK.countSk });
export const HOOKS = itemKind('HOOKS#');
export const hooksKey = (event: WebhookEvent, userId: string, webhookId: string) => ({ pk: HOOKS.pk(event), sk: `${userId}#${webhookId}` });
export const DELIVERY = itemKind('DELIVERY#');
export const deliveryKey = (webhookId: string, deliveryId: string) => ({ pk: DELIVERY.pk(webhookId), sk: deliveryId });

/** A secret that signs: the newest first; one rotated out signs beside it until `expires_at`. */
export interface StoredSecret {
  secret: string;
  expires_at: string | null;
}

export interface StoredWebhook {
  webhook_id: string;
  user_id: string;
  url: string;
  events: WebhookEvent[];
  filters: WebhookFilters;
  description: string;
  secrets: StoredSecret[];
  /** Why it no longer receives deliveries (410 Gone, failing for 5 days, its owner), and since when; none while enabled. */
  disabled: { reason: string; at: string } | null;
  /** The first failed attempt since its last delivered one: 5 days of failing disable it. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
  /** Counts its writes: each is made on the version read. */
  version: number;
}

/** A subscriber: the endpoint an event reaches, with its filters (a copy of the endpoint's). */
export interface StoredHook {
  user_id: string;
  webhook_id: string;
  filters: WebhookFilters;
  /** Whether its target is a Discord webhook (its body is then a Discord message, made when it is sent). */
  discord: boolean;
}

/** One attempt: when, and the endpoint's answer's status (none: no answer — `error` says why). */
export interface Attempt {
  at: string;
  status: number | null;
  error?: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface StoredDelivery {
  delivery_id: string;
  webhook_id: string;
  user_id: string;
  type: WebhookEvent;
  /** The body as sent (Standard Webhooks' `{ type, timestamp, data }`, or Discord's message), ≤ 20 kB. */
  body: string;
  status: DeliveryStatus;
  /** Retries already waited in this run of attempts (a replay starts a new run). */
  retries: number;
  attempts: Attempt[];
  /** When its next attempt is due, while pending. */
  next_try: string | null;
  created_at: string;
  /** Counts its writes: an attempt is recorded on the version read. */
  version: number;
}
