/** Webhooks' bodies and answers (contract §13.5): an endpoint as its owner sees it, its secret shown once, its deliveries. */
import * as v from 'valibot';
import { CARD_ID } from '#rules/card.ts';
import { coded } from '#rules/issues.ts';
import { visibleOnly } from '#rules/schemas.ts';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '#rules/webhooks.ts';
import { INDEX_FILTER_PARAMS, MAX_CARD_FILTERS } from './queries.ts';

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const url = v.pipe(
  v.string(),
  v.maxLength(WEBHOOK_LIMITS.urlChars, coded('too_long', `url is at most ${WEBHOOK_LIMITS.urlChars} characters`)),
  // What is shown is what is called: no character a URL parser would drop or take in silently.
  v.check((u) => !/[\s\p{C}]/u.test(u), coded('invalid_value', 'url has no spaces, control, format or unassigned characters')),
  v.description(
    'Where deliveries are POSTed: https (a deployed service takes nothing else), a public host; a Discord webhook URL (https://discord.com/api/webhooks/…) gets a message with the deck’s embed instead.',
  ),
);
const events = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENTS)),
  v.minLength(1, coded('invalid_value', 'events names at least one event')),
  // Each once, in one order (the list's): the same events are the same whatever order they are given in.
  v.transform((e) => WEBHOOK_EVENTS.filter((event) => e.includes(event))),
  v.description(
    '`deck.published` (a deck made public, or created public), `deck.updated` (a public deck’s cards or guide), `deck.unpublished` (made private or unlisted, deleted, erased: the slug alone), `catalogue.published`, `event.locked`.',
  ),
);
const cards = (meaning: string) =>
  v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(CARD_ID, coded('invalid_value', 'a card id is 1-64 characters of [0-9A-Za-z_.:-]')))),
      v.maxLength(MAX_CARD_FILTERS, coded('invalid_value', `at most ${MAX_CARD_FILTERS} cards`)),
      v.transform((ids: string[]) => [...new Set(ids)]),
      v.description(meaning),
    ),
  );
/** Search's filters (GET /api/v1/decks), the same names and values; the cards as lists. A deck event reaches an endpoint only for a deck they all keep. */
const filters = v.pipe(
  v.strictObject({
    ...INDEX_FILTER_PARAMS,
    card: cards('Decks that hold every one of these cards'),
    exclude_card: cards('Decks that hold none of these cards'),
  }),
  v.description('Search’s filters (GET /api/v1/decks): a deck event reaches the endpoint only for a deck every one given keeps.'),
);
const description = v.pipe(
  v.string(),
  v.maxLength(WEBHOOK_LIMITS.descriptionChars, coded('too_long', `description is at most ${WEBHOOK_LIMITS.descriptionChars} characters`)),
  visibleOnly('description'),
);

export const WebhookBody = v.strictObject({ url, events, filters: v.optional(filters), description: v.optional(description) });
export const WebhookPatch = v.pipe(
  v.strictObject({
    url: v.optional(url),
    events: v.optional(events),
    filters: v.optional(filters),
    description: v.optional(description),
    disabled: v.optional(
      v.pipe(v.boolean(), v.description('true stops deliveries; false starts them again (and clears why they stopped).')),
    ),
    rotate_secret: v.optional(
      v.pipe(
        v.literal(true),
        v.description('A new secret, answered once; the old one signs beside it for 24 hours (a receiver takes either).'),
      ),
    ),
  }),
  v.check((b) => Object.keys(b).length > 0, coded('empty_patch', 'send at least one field to change')),
  v.metadata({ minProperties: 1 }),
);
export type WebhookChange = v.InferOutput<typeof WebhookPatch>;

export const Webhook = v.strictObject({
  webhook_id: v.string(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENTS)),
  filters: v.record(v.string(), v.union([v.string(), v.array(v.string())])),
  description: v.string(),
  /** Whether it gets Discord's message rather than the Standard Webhooks body. */
  discord: v.boolean(),
  disabled: v.nullable(v.strictObject({ reason: v.string(), at: timestamp })),
  failing_since: v.nullable(timestamp),
  /** Until when a rotated-out secret still signs beside the new one; none when one secret signs. */
  previous_secret_expires_at: v.nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
  links: v.strictObject({ deliveries: v.string() }),
});
export const CreatedWebhook = v.strictObject({
  ...Webhook.entries,
  secret: v.pipe(v.string(), v.description('`whsec_` and 32 random bytes in base64: shown in this answer only; it signs every delivery.')),
});

export const ChangedWebhook = v.strictObject({
  ...Webhook.entries,
  secret: v.optional(v.pipe(v.string(), v.description('The new secret, when the change rotated it: shown in this answer only.'))),
});

const Attempt = v.strictObject({ at: timestamp, status: v.nullable(v.number()), error: v.optional(v.string()) });
export const Delivery = v.strictObject({
  delivery_id: v.pipe(v.string(), v.description('Its `webhook-id`, the same on every attempt.')),
  type: v.picklist(WEBHOOK_EVENTS),
  status: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.array(Attempt),
  next_try: v.nullable(timestamp),
  created_at: timestamp,
});
