/**
 * An account's webhooks (contract §13.5): made, listed, read, changed and deleted by a key of the account with
 * webhooks:manage; their deliveries listed and sent again. A target is checked when given (its name resolved: target.ts);
 * a change is made on the version read, and made again on a newer one when another came between.
 */
import { randomUUID } from 'node:crypto';
import type * as v from 'valibot';
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { ApiError, unavailable, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { WEBHOOK_ROUTES as R } from '#routes/webhooks.ts';
import { detail } from '#rules/details.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { parseStrict } from '#rules/strict-input.ts';
import { isDiscordWebhook, liveSecrets, newSecret, WEBHOOK_LIMITS } from '#rules/webhooks.ts';
import type { Delivery, Webhook, WebhookChange } from '#shapes/webhooks.ts';
import { WebhookBody, WebhookPatch } from '#shapes/webhooks.ts';
import { documentClient } from '#store/client.ts';
import type { StoredDelivery, StoredWebhook } from '#store/items/webhook.ts';
import {
  changeDelivery,
  changeWebhook,
  deleteWebhook as dropWebhook,
  getDelivery,
  getWebhook,
  listDeliveries as storedDeliveries,
  listWebhooks as storedWebhooks,
  createWebhook as storeWebhook,
} from '#store/webhooks.ts';
import { sendDelivery } from './queue.ts';
import { resolvedTargetIssue, targetMode } from './target.ts';

const HOUR_MS = 3_600_000;
const webhookPath = (userId: string, webhookId: string) => `/api/v1/users/${userId}/webhooks/${webhookId}`;

/** An endpoint as its owner sees it: never a secret. */
export function webhookAnswer(w: StoredWebhook, now: Date): v.InferOutput<typeof Webhook> {
  const rotated = liveSecrets(w, now).find((s) => s.expires_at !== null);
  return {
    webhook_id: w.webhook_id,
    url: w.url,
    events: w.events,
    filters: w.filters as Record<string, string | string[]>,
    description: w.description,
    discord: isDiscordWebhook(w.url),
    disabled: w.disabled,
    failing_since: w.failing_since,
    previous_secret_expires_at: rotated?.expires_at ?? null,
    created_at: w.created_at,
    updated_at: w.updated_at,
    links: { deliveries: `${webhookPath(w.user_id, w.webhook_id)}/deliveries` },
  };
}

export const deliveryAnswer = (d: StoredDelivery): v.InferOutput<typeof Delivery> => ({
  delivery_id: d.delivery_id,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  next_try: d.next_try,
  created_at: d.created_at,
});

const notFound = () => new ApiError(404, 'not_found', 'this account has no webhook of that id');

/** The account's endpoint of the path, or its 404. */
async function webhookOf(userId: string, webhookId: string, consistent = false): Promise<StoredWebhook> {
  const w = await getWebhook(userId, webhookId, consistent);
  if (!w) throw notFound();
  return w;
}

/** A target's issue as a 422. */
async function checkTarget(url: string): Promise<void> {
  const issue = await resolvedTargetIssue(url, targetMode());
  if (issue) throw validationFailed([detail('url', 'invalid_value', issue)]);
}

export const createWebhook = endpoint(R.createWebhook, { init: [documentClient] }, async (req) => {
  const parsed = parseStrict(WebhookBody, req.body);
  if (!parsed.ok) throw validationFailed(parsed.details);
  const body = parsed.output;
  await checkTarget(body.url);
  const now = new Date();
  const at = now.toISOString();
  const secret = newSecret();
  const w: StoredWebhook = {
    webhook_id: randomUUID(),
    user_id: req.key.user_id,
    url: new URL(body.url).href,
    events: body.events,
    filters: body.filters ?? {},
    description: body.description ?? '',
    secrets: [{ secret, expires_at: null }],
    disabled: null,
    failing_since: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const outcome = await storeWebhook(w);
  if (outcome === 'failed')
    throw validationFailed([detail('', 'too_many', `an account has at most ${WEBHOOK_LIMITS.perAccount} webhooks: delete one first`)]);
  if (outcome !== 'ok') throw unavailable('the webhook could not be made; retry');
  return { status: 201, data: { ...webhookAnswer(w, now), secret }, headers: { location: webhookPath(w.user_id, w.webhook_id) } };
});

export const listWebhooks = endpoint(R.listWebhooks, { init: [documentClient] }, async (req) => {
  const now = new Date();
  return { data: (await storedWebhooks(req.key.user_id)).map((w) => webhookAnswer(w, now)) };
});

export const readWebhook = endpoint(R.readWebhook, { init: [documentClient] }, async (req) => ({
  data: webhookAnswer(await webhookOf(req.key.user_id, req.params.webhook_id), new Date()),
}));

/** An endpoint as a change leaves it (`secret`: the new one, when it rotates), or none when nothing changes. */
export function changedWebhook(w: StoredWebhook, change: WebhookChange, now: Date): { next: StoredWebhook; secret?: string } | undefined {
  const next: StoredWebhook = { ...w };
  let moved = false;
  const set = <K extends keyof StoredWebhook>(field: K, value: StoredWebhook[K]) => {
    if (JSON.stringify(w[field]) === JSON.stringify(value)) return;
    next[field] = value;
    moved = true;
  };
  if (change.url !== undefined) set('url', new URL(change.url).href);
  if (change.events !== undefined) set('events', change.events);
  if (change.filters !== undefined) set('filters', change.filters);
  if (change.description !== undefined) set('description', change.description);
  if (change.disabled === true && !w.disabled) set('disabled', { reason: 'disabled by its owner', at: now.toISOString() });
  if (change.disabled === false && w.disabled) {
    set('disabled', null);
    set('failing_since', null);
  }
  let secret: string | undefined;
  if (change.rotate_secret) {
    secret = newSecret();
    // Every secret still live signs on beside the new one — the one it replaces for 24 hours, one rotated out before
    // until its own expiry — so that a secret answered by a rotation (two at once included) is never left unsigned.
    const until = new Date(now.getTime() + WEBHOOK_LIMITS.rotationHours * HOUR_MS).toISOString();
    const kept = liveSecrets(w, now).map((s) => ({ secret: s.secret, expires_at: s.expires_at ?? until }));
    set('secrets', [{ secret, expires_at: null }, ...kept].slice(0, WEBHOOK_LIMITS.liveSecrets));
  }
  if (!moved) return undefined;
  return { next: { ...next, updated_at: now.toISOString(), version: w.version + 1 }, ...(secret ? { secret } : {}) };
}

export const updateWebhook = endpoint(R.updateWebhook, { init: [documentClient] }, async (req) => {
  const userId = req.key.user_id;
  let w = await webhookOf(userId, req.params.webhook_id, true);
  const parsed = parseStrict(WebhookPatch, req.body);
  if (!parsed.ok) throw validationFailed(parsed.details);
  const change = parsed.output;
  if (change.url !== undefined && change.url !== w.url) await checkTarget(change.url);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    if (attempt > 0) w = await webhookOf(userId, req.params.webhook_id, true);
    const now = new Date();
    const changed = changedWebhook(w, change, now);
    if (!changed) return { data: webhookAnswer(w, now) };
    const outcome = await changeWebhook(w, changed.next);
    if (outcome === 'ok') return { data: { ...webhookAnswer(changed.next, now), ...(changed.secret ? { secret: changed.secret } : {}) } };
    await pause(attempt);
  }
  throw unavailable('the webhook is being changed by many requests at once; retry');
});

export const deleteWebhook = endpoint(R.deleteWebhook, { init: [documentClient] }, async (req) => {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const w = await webhookOf(req.key.user_id, req.params.webhook_id, true);
    const outcome = await dropWebhook(w);
    if (outcome === 'ok') return { data: webhookAnswer(w, new Date()) };
    await pause(attempt);
  }
  throw unavailable('the webhook is being changed by many requests at once; retry');
});

export const listDeliveries = endpoint(R.listDeliveries, { init: [documentClient] }, async (req) => {
  const w = await webhookOf(req.key.user_id, req.params.webhook_id);
  return { data: (await storedDeliveries(w.webhook_id, WEBHOOK_LIMITS.deliveriesListed)).map(deliveryAnswer) };
});

export const replayDelivery = endpoint(R.replayDelivery, { init: [documentClient] }, async (req) => {
  const details = checkEmptyObject(req.body, 'a replay');
  if (details.length > 0) throw validationFailed(details);
  const w = await webhookOf(req.key.user_id, req.params.webhook_id, true);
  if (w.disabled)
    throw new ApiError(409, 'webhook_disabled', `the webhook is disabled (${w.disabled.reason}): enable it first (PATCH disabled: false)`);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const d = await getDelivery(w.webhook_id, req.params.delivery_id);
    if (!d) throw new ApiError(404, 'not_found', 'this webhook has no delivery of that id');
    const next: StoredDelivery = { ...d, status: 'pending', retries: 0, next_try: new Date().toISOString(), version: d.version + 1 };
    if (await changeDelivery(d, next)) {
      await sendDelivery({ user_id: w.user_id, webhook_id: w.webhook_id, delivery_id: d.delivery_id, version: next.version });
      return { data: deliveryAnswer(next) };
    }
    await pause(attempt);
  }
  throw unavailable('the delivery is being changed by many requests at once; retry');
});
