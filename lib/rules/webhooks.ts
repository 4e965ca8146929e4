/**
 * Webhooks (contract §13.5), pure: the events an endpoint subscribes to, a delivery's payload and its Standard Webhooks
 * 1.0 signature, the retry schedule, the targets a delivery may never reach (by address), and whether a deck passes an
 * endpoint's filters (search's, lib/rules/search-filters.ts). No I/O: lib/webhooks/ resolves names and sends.
 *
 * Standard Webhooks 1.0 (github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md): headers
 * `webhook-id` (the message's id, the same on every attempt), `webhook-timestamp` (seconds since the epoch) and
 * `webhook-signature` — `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<body>">` with the secret's bytes (the base64
 * after `whsec_`), several space-separated while a secret is rotated. Its reference verifier (the `standardwebhooks` npm
 * package) checks these in test/unit/webhooks.test.ts.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { INDEX_FILTERS, type IndexFilterValues } from './search-filters.ts';

/** The events an endpoint may take (contract §13.5); `event.locked` is named but not yet sent (docs/webhooks.md). */
export const WEBHOOK_EVENTS = ['deck.published', 'deck.updated', 'deck.unpublished', 'catalogue.published', 'event.locked'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** An account's webhooks and what each holds (contract §13.5). */
export const WEBHOOK_LIMITS = {
  perAccount: 10,
  descriptionChars: 200,
  urlChars: 2048,
  /** A delivery's body (Standard Webhooks: under 20 kB). */
  bodyBytes: 20_000,
  /** How long a rotated-out secret still signs, and how many secrets sign at once at most (the newest first). */
  rotationHours: 24,
  liveSecrets: 5,
  /** An endpoint failing this long (every attempt since its first failure) is disabled. */
  failingDays: 5,
  /** An attempt's wait for its answer. */
  timeoutSeconds: 15,
  /** The attempts a delivery's log keeps (its newest). */
  attemptsKept: 20,
  /** The deliveries a log lists (newest first), and how long one is kept. */
  deliveriesListed: 50,
  deliveryDays: 30,
} as const;

export const SECRET_PREFIX = 'whsec_';
/** A secret's random bytes (the spec: 24 to 64). */
export const SECRET_BYTES = 32;
/**
 * The waits before each retry (after the first attempt fails), the contract's (§13.5): 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h, 24 h. Ten attempts in all, over about 3 days and 3 hours.
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;

/** The secrets that still sign at `now`: the newest (no expiry), and one rotated out until its expiry. */
export const liveSecrets = <S extends { expires_at: string | null }>(w: { secrets: readonly S[] }, now: Date): S[] =>
  w.secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now.getTime());

/** A new secret: `whsec_` and SECRET_BYTES random bytes in base64. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/**
 * A delivery's id (Standard Webhooks' `webhook-id`, the same on every attempt): `msg_`, its time in base 36 (so that ids
 * sort by time) and 16 hex digits of a hash of what makes it (the change and the endpoint), so that a change seen twice
 * makes the same id — and one delivery.
 */
export const deliveryIdOf = (at: number, seed: string): string =>
  `msg_${at.toString(36).padStart(9, '0')}${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;

/** The Standard Webhooks body of an event: `{ type, timestamp, data }` (timestamp an RFC 3339 time). */
export const deliveryBody = (type: WebhookEvent, at: Date, data: unknown): string =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

/** The wait before retry `n` (0-based), with up to a fifth of it again as jitter (`random` in [0, 1)); undefined past the last. */
export function retryDelaySeconds(n: number, random: number): number | undefined {
  const base = RETRY_SCHEDULE_SECONDS[n];
  return base === undefined ? undefined : Math.round(base * (1 + random / 5));
}

/** The key a secret names: the bytes of the base64 after `whsec_`. */
const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** One secret's signature of a message: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export const signWith = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

/** The `webhook-signature` header: each live secret's signature, space-separated (several while rotating). */
export const signatureHeader = (secrets: readonly string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => signWith(s, id, timestamp, body)).join(' ');

/** The three headers of an attempt. */
export function deliveryHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
    'content-type': 'application/json',
  };
}

/**
 * Addresses a delivery never reaches: loopback, private (RFC 1918, unique-local fc00::/7), link-local (169.254/16, the
 * metadata service's 169.254.169.254 among them; fe80::/10), "this network" (0/8, ::), shared (100.64/10), the
 * multicast, reserved and documentation ranges, AWS's IPv6 metadata address (fd00:ec2::254, in fc00::/7), and every
 * IPv6 form that carries or reaches an IPv4 address — IPv4-compatible (::/96), IPv4-translated (::ffff:0:0/96), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32); ::ffff: mapped ones are checked as IPv4.
 * The local runtime's setting (`loopback`) allows 127/8 and ::1 alone, never a deployed stack's.
 */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const BLOCKED_V6: [string, number][] = [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];
const BLOCKED = new BlockList();
for (const [net, bits] of BLOCKED_V4) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of BLOCKED_V6) BLOCKED.addSubnet(net, bits, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written in IPv6 (::ffff:a.b.c.d, or ::ffff:xxxx:xxxx) as IPv4; any other address as it is. */
function unmapped(address: string): string {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return address;
  if (m[1]) return m[1];
  const [hi, lo] = [Number.parseInt(m[2] ?? '0', 16), Number.parseInt(m[3] ?? '0', 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether a delivery may reach this IP address (`loopback`: the local runtime's setting). Anything not an IP is refused. */
export function reachableAddress(address: string, loopback = false): boolean {
  const ip = unmapped(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback && LOOPBACK.check(ip, type)) return true;
  return !BLOCKED.check(ip, type);
}

/** Discord's webhook URLs (discord.com/api/webhooks/<id>/<token>, and its older and testing hosts). */
const DISCORD_WEBHOOK = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/\d{1,20}\/[\w-]{1,100}$/;
export const isDiscordWebhook = (url: string): boolean => DISCORD_WEBHOOK.test(url);

/**
 * What is wrong with a target URL before any name is resolved: none, or why. https only where `https` (a deployed
 * stack); no user or password in it, no fragment; a literal address must be reachable. A name is checked once resolved, at
 * registration and before each attempt (lib/webhooks/target.ts).
 */
export function targetIssue(raw: string, { https, loopback }: { https: boolean; loopback: boolean }): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a URL';
  }
  if (raw.length > 2048) return 'url is at most 2,048 characters';
  if (url.protocol !== 'https:' && (https || url.protocol !== 'http:')) return https ? 'url must be https' : 'url must be http or https';
  if (url.username || url.password) return 'url must not carry a user or password';
  if (url.hash) return 'url must not carry a fragment';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !reachableAddress(host, loopback)) return 'url names an address deliveries never reach (private, loopback, link-local)';
  // A name (one label or many) is judged by the addresses it resolves to, at registration and where an attempt connects.
  return undefined;
}

/** What an endpoint filters decks on: search's filters (each optional), as a search's query names them. */
export type WebhookFilters = IndexFilterValues & { card?: string[]; exclude_card?: string[] };

/** A public deck as the filters see it: its search entry's attributes and its cards. */
export interface FilteredDeck {
  archetype_id?: string | null;
  tags: readonly string[];
  main_faction: string;
  ally_faction: string;
  search_text: string;
  cards: readonly string[];
}

/** Whether a deck passes an endpoint's filters: each given filter as search tests it (equal, or held), every card held, none excluded. */
export function passesFilters(deck: FilteredDeck, filters: WebhookFilters): boolean {
  for (const f of INDEX_FILTERS) {
    const wanted = filters[f.param];
    if (wanted === undefined) continue;
    const value = deck[f.attribute as keyof FilteredDeck];
    if (f.test === 'equals' ? value !== wanted : !(Array.isArray(value) ? value.includes(wanted) : String(value ?? '').includes(wanted)))
      return false;
  }
  return (filters.card ?? []).every((c) => deck.cards.includes(c)) && !(filters.exclude_card ?? []).some((c) => deck.cards.includes(c));
}
