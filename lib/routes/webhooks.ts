/**
 * Webhooks (contract §13.5): an account's endpoints (webhooks:manage, the key's own account), their deliveries' log and
 * a delivery sent again. Deliveries are made by the store-change worker and sent by the deliveries worker (workers.ts).
 */
import { DELIVERY, HOOKS, WEBHOOK } from '#store/items/webhook.ts';
import { DeliveryId, UserId, WebhookId } from './params.ts';
import { type Declared, decks, routes } from './route.ts';

const WEBHOOKS = '/api/v1/users/{user_id}/webhooks';
const ONE = `${WEBHOOKS}/{webhook_id}`;
const user = { user_id: UserId } as const;
const one = { user_id: UserId, webhook_id: WebhookId } as const;
const reading = decks(['GetItem'], [WEBHOOK.grant]);
const TARGETS =
  'A target is checked when given: https (a deployed service takes nothing else; a local one, started with `npm start`, takes http and loopback for local use), no user or password, no fragment, and a host that resolves only to public addresses — loopback, private (RFC 1918, unique-local), link-local (the metadata service among them) and reserved addresses are 422; each delivery checks again where it connects.';

export const WEBHOOK_ROUTES = routes({
  createWebhook: {
    method: 'POST',
    path: WEBHOOKS,
    scope: 'webhooks:manage',
    params: user,
    body: 'WebhookBody',
    // The endpoint, one more on its account's count, a subscriber item an event: one transaction.
    grants: [decks(['PutItem', 'UpdateItem'], [WEBHOOK.grant]), decks(['PutItem'], [HOOKS.grant])],
    summary: 'Register a webhook',
    description: `{ url, events, filters?, description? }: the events it takes and search's filters (a deck event reaches it for a deck they keep). The answer shows its secret (\`whsec_\`…) once: every delivery is signed with it as Standard Webhooks 1.0 says (headers webhook-id, webhook-timestamp, webhook-signature). At most 10 an account (422 \`too_many\`). ${TARGETS}`,
    tag: 'Webhooks',
    success: { status: 201, data: 'CreatedWebhook', headers: ['Location'] },
  } as const satisfies Declared,
  listWebhooks: {
    method: 'GET',
    path: WEBHOOKS,
    scope: 'webhooks:manage',
    params: user,
    grants: [decks(['Query'], [WEBHOOK.grant])],
    summary: "The account's webhooks",
    description: 'Oldest made first; never a secret. A disabled one says why and since when.',
    tag: 'Webhooks',
    success: { status: 200, data: 'Webhook[]' },
  } as const satisfies Declared,
  readWebhook: {
    method: 'GET',
    path: ONE,
    scope: 'webhooks:manage',
    params: one,
    grants: [reading],
    summary: 'A webhook',
    description: 'Its target, events, filters, whether it is disabled and why, since when it fails; never a secret.',
    tag: 'Webhooks',
    success: { status: 200, data: 'Webhook' },
    errors: ['not_found'],
  } as const satisfies Declared,
  updateWebhook: {
    method: 'PATCH',
    path: ONE,
    scope: 'webhooks:manage',
    params: one,
    body: 'WebhookPatch',
    // The endpoint read, then written on that version with the subscriber items its events and filters move: one transaction.
    grants: [decks(['GetItem', 'PutItem'], [WEBHOOK.grant]), decks(['PutItem', 'DeleteItem'], [HOOKS.grant])],
    summary: 'Change a webhook',
    description: `Any of url, events, filters, description; \`disabled\` (true stops its deliveries, false starts them again); \`rotate_secret: true\` answers a new secret once (\`secret\`), the old one signing beside it for 24 hours. ${TARGETS}`,
    tag: 'Webhooks',
    success: { status: 200, data: 'ChangedWebhook' },
    errors: ['not_found'],
  } as const satisfies Declared,
  deleteWebhook: {
    method: 'DELETE',
    path: ONE,
    scope: 'webhooks:manage',
    params: one,
    // The endpoint read, then deleted on that version with its subscriber items and one off its count: one transaction.
    grants: [decks(['GetItem', 'DeleteItem', 'UpdateItem'], [WEBHOOK.grant]), decks(['DeleteItem'], [HOOKS.grant])],
    summary: 'Delete a webhook',
    description: 'No delivery is sent to it from the answer on; its log expires with its deliveries (30 days).',
    tag: 'Webhooks',
    success: { status: 200, data: 'Webhook' },
    errors: ['not_found'],
  } as const satisfies Declared,
  listDeliveries: {
    method: 'GET',
    path: `${ONE}/deliveries`,
    scope: 'webhooks:manage',
    params: one,
    grants: [reading, decks(['Query'], [DELIVERY.grant])],
    summary: "A webhook's deliveries",
    description:
      'The newest 50 (kept 30 days), newest first: each its id (the webhook-id it is sent with), event, status (pending, delivered, failed), attempts (when, the answer’s status code or why none came) and next try. A delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (a fifth more at most, at random), then failed; an answer 410 Gone disables the webhook, as do 5 days of failures.',
    tag: 'Webhooks',
    success: { status: 200, data: 'Delivery[]' },
    errors: ['not_found'],
  } as const satisfies Declared,
  replayDelivery: {
    method: 'POST',
    path: `${ONE}/deliveries/{delivery_id}/replay`,
    scope: 'webhooks:manage',
    params: { ...one, delivery_id: DeliveryId },
    body: 'EmptyBody',
    deliveries: true,
    grants: [reading, decks(['GetItem', 'PutItem'], [DELIVERY.grant])],
    summary: 'Send a delivery again',
    description:
      'Body {}. The same body under the same webhook-id (a receiver that keeps the ids it took sees it again), signed afresh, sent at once and retried as a new delivery is. A disabled webhook is 409 `webhook_disabled`: enable it first.',
    tag: 'Webhooks',
    success: { status: 200, data: 'Delivery' },
    errors: ['not_found', 'webhook_disabled'],
  } as const satisfies Declared,
});
