/**
 * Events (contract §13.4), pure: what an event asks of a submission — each deck valid in the event's card pool, legal
 * in its format, as many as it takes a player, their main nations different when it says so — every failure named
 * (its deck, its card, its rule); when an event still takes submissions; and the hash a locked submission carries
 * (the SHA-256 of its decks' canonical codes, one a line in the order given), which a player can work out from what
 * they sent.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { Read } from './collection.ts';
import { type Detail, detail } from './details.ts';
import type { Format } from './formats.ts';
import { UUID } from './ids.ts';
import { holdsInvisible, INVISIBLE } from './invisible.ts';
import { coded } from './issues.ts';
import { LIMITS } from './limits.ts';
import { visibleOnly } from './schemas.ts';
import { parseStrict } from './strict-input.ts';
import { DAY_MS } from './week.ts';

/** An event's formats: the game's own rules alone (`standard`), or one of the community's formats on top of them. */
export const EVENT_FORMATS = ['standard', 'pauper', 'singleton', 'monodeck'] as const satisfies readonly ['standard', ...Format[]];
export type EventFormat = (typeof EVENT_FORMATS)[number];
/** What a submission is checked against. */
export interface EventRules {
  format: EventFormat;
  decks_per_player: number;
  distinct_mains: boolean;
}

/** Whether an event takes (or withdraws) submissions at an instant: until its deadline, not at it. A deadline that is no time throws. */
export function submissionsOpen(deadline: string, now: Date): boolean {
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) throw new RangeError(`an event's deadline is a time (RFC 3339): ${JSON.stringify(deadline)}`);
  return now.getTime() < end;
}

/** A locked submission's hash: SHA-256 (hex) of its decks' canonical codes, one a line (`\n`-joined), in the order given. */
export const lockHash = (codes: readonly string[]): string => createHash('sha256').update(codes.join('\n'), 'utf8').digest('hex');

/** The instant a pool's date is read at: its end (UTC), so that a version published that day is the day's pool. */
export function poolInstant(day: string): Date {
  const start = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(start)) throw new RangeError(`a pool's date is a day (YYYY-MM-DD): ${JSON.stringify(day)}`);
  return new Date(start + DAY_MS - 1);
}

/** An entry as a list shows it (contract §13.4): the player, their decks, the lock's hash, a disqualification. */
export interface ListedEntry {
  /** None in the lists anyone reads: an account's id is its own and its organizer's. */
  user_id?: string;
  display_name: string;
  decks: readonly { deck_code: string; main_faction: string; ally_faction: string; archetype: { name: string } | null }[];
  lock_hash: string | null;
  /** False when the organizer changed the event's rules after it was checked. */
  checked_under_current_rules: boolean;
  disqualified: { reason: string } | null;
}

/**
 * A cell of a CSV file (RFC 4180): quoted when it holds a comma, a quote, a line break or space at either end, its
 * quotes doubled; one that a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first: OWASP,
 * "CSV Injection") is led by an apostrophe, so that a display name is shown, never run.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * An event's lists as CSV for bracket tools: a header, then one row a player (CRLF line ends, RFC 4180); a deck's
 * columns for as many decks as the event takes or an entry holds (one made under earlier rules may hold more).
 */
export function entriesCsv(entries: readonly ListedEntry[], decksPerEvent: number): string {
  const decksPerPlayer = Math.max(decksPerEvent, ...entries.map((e) => e.decks.length));
  const deckColumns = Array.from({ length: decksPerPlayer }, (_, i) =>
    ['code', 'main_faction', 'ally_faction', 'archetype'].map((c) => `deck_${i + 1}_${c}`),
  ).flat();
  const header = ['player', 'user_id', ...deckColumns, 'lock_hash', 'checked_under_current_rules', 'disqualified'];
  const rows = entries.map((e) => [
    e.display_name,
    e.user_id ?? '',
    ...Array.from({ length: decksPerPlayer }, (_, i) => {
      const d = e.decks[i];
      return d ? [d.deck_code, d.main_faction, d.ally_faction, d.archetype?.name ?? ''] : ['', '', '', ''];
    }).flat(),
    e.lock_hash ?? '',
    e.checked_under_current_rules ? 'yes' : 'no',
    e.disqualified?.reason ?? '',
  ]);
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** How long an event's texts may be, and how far ahead its deadline may be set. */
export const EVENT_LIMITS = { nameChars: 100, descriptionChars: 2_000, reasonChars: 200, deadlineDays: 366, changesAtOnce: 30 } as const;
/** An RFC 3339 time (section 5.6: `T` and `Z` in either case, a fraction, an offset), its parts captured. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
/** Whether a year, month and day name a day of the calendar (2026-02-30 does not). */
const dayExists = (y: number, m: number, d: number) => {
  const at = new Date(Date.UTC(y, m - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
};
/** A calendar day (YYYY-MM-DD) that is one, from year 2000 on. */
const isDay = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m !== null && Number(m[1]) >= 2000 && dayExists(Number(m[1]), Number(m[2]), Number(m[3]));
};
/**
 * An RFC 3339 time as the store and every answer keep it: UTC, milliseconds (`toISOString`), or undefined when it is
 * none — a day that does not exist, hour 24, an offset past 23:59, and the leap second 60 (JavaScript's clock has
 * none) are none.
 */
export function utcTime(s: string): string | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!dayExists(y, mo, d) || h > 23 || mi > 59 || sec > 59) return undefined;
  if (m[8] && (Number(m[9]) > 23 || Number(m[10]) > 59)) return undefined;
  const ms = Date.parse(s.toUpperCase());
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
/** The day (UTC) of an instant, YYYY-MM-DD. */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Code points, as a client counts characters. */
const chars = (s: string) => [...s].length;
const within = (n: number) => v.check<string, string>((s) => chars(s) <= n, coded('too_long', `at most ${n} characters`));
/** Visible text but line breaks and tabs (a description's lines, CRLF or LF). */
const lines = (what: string) =>
  v.check<string, string>((s) => !INVISIBLE.test(s.replace(/[\r\n\t]/g, '')), coded('invalid_value', holdsInvisible(what)));
/** Characters that show as nothing though they are letters or symbols (Hangul fillers, the blank Braille pattern). */
const BLANK = /[\s\u115F\u1160\u2800\u3164\uFFA0]/gu;
/** Text that shows something: not only spaces and blank lookalikes. */
const showing = (code: 'required' | 'blank_reason', message: string) =>
  v.check<string, string>((s) => s.replace(BLANK, '').length > 0, coded(code, message));

const name = v.pipe(
  v.string(),
  v.trim(),
  showing('required', 'name shows no character'),
  within(EVENT_LIMITS.nameChars),
  visibleOnly('name'),
  v.description("The event's name."),
);
const description = v.pipe(
  v.string(),
  within(EVENT_LIMITS.descriptionChars),
  lines('description'),
  v.description('What players should know (plain text; lines and tabs kept).'),
);
const format = v.pipe(
  v.picklist(EVENT_FORMATS),
  v.description("The decks' format: `standard` (the game's rules alone), or `pauper`, `singleton`, `monodeck` on top of them."),
);
const pool_date = v.pipe(
  v.string(),
  v.check(isDay, coded('invalid_value', 'pool_date must be a day (YYYY-MM-DD)')),
  v.description(
    "The card pool's day (YYYY-MM-DD, a day before today in UTC, so that its pool is fixed): the catalogue version in force at that day's end; before the first version kept, the oldest kept.",
  ),
);
const decks_per_player = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(1),
  v.maxValue(3),
  v.description('How many decks each player submits (1–3).'),
);
const distinct_mains = v.pipe(v.boolean(), v.description("Whether a player's decks must have different main nations."));
const deadline = v.pipe(
  v.string(),
  v.check((s) => utcTime(s) !== undefined, coded('invalid_value', 'deadline must be an RFC 3339 time, such as 2026-12-05T12:00:00Z')),
  v.description('The submission deadline (RFC 3339; answered in UTC): submissions are taken until it, not at it.'),
);
const lists = v.pipe(
  v.picklist(['open', 'closed']),
  v.description('`open`: anyone reads the lists after the deadline; `closed`: only the organizer ever does.'),
);
const userId = v.pipe(v.string(), v.regex(UUID, 'a user_id'));
const reason = v.pipe(
  v.string(),
  v.trim(),
  showing('blank_reason', 'a disqualification gives its reason'),
  within(EVENT_LIMITS.reasonChars),
  visibleOnly('reason'),
);

/** A new event (`POST /api/v1/events`): description defaults to none, distinct_mains to false, lists to closed. */
export const EventBody = v.strictObject({
  name,
  description: v.optional(description),
  format,
  pool_date,
  decks_per_player,
  distinct_mains: v.optional(distinct_mains),
  deadline,
  lists: v.optional(lists),
});
/** An organizer's change: any field (until the deadline; after it the description only), withdrawals, disqualifications. */
export const EventPatch = v.pipe(
  v.strictObject({
    name: v.optional(name),
    description: v.optional(description),
    format: v.optional(format),
    pool_date: v.optional(pool_date),
    decks_per_player: v.optional(decks_per_player),
    distinct_mains: v.optional(distinct_mains),
    deadline: v.optional(deadline),
    lists: v.optional(lists),
    withdraw: v.optional(
      v.pipe(
        v.array(userId),
        v.maxLength(EVENT_LIMITS.changesAtOnce),
        v.description('Players whose entries the organizer takes out (at any time).'),
      ),
    ),
    disqualify: v.optional(
      v.pipe(
        v.array(v.strictObject({ user_id: userId, reason: v.nullable(reason) })),
        v.maxLength(EVENT_LIMITS.changesAtOnce),
        v.description('Entries disqualified, each with its reason (shown in the lists); a null reason reinstates one.'),
      ),
    ),
  }),
  v.check((b) => Object.keys(b).length > 0, coded('empty_patch', 'send at least one field to change')),
  v.metadata({ minProperties: 1 }),
);
/** One deck of a submission: a code, or one of the player's saved decks — one of the two. */
const SubmittedDeck = v.pipe(
  v.strictObject({
    deck_code: v.optional(v.pipe(v.string(), v.maxLength(LIMITS.deckCodeChars), v.description('A deck code (the %% form).'))),
    deck_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(UUID, coded('invalid_value', "a deck_id is a deck's id (a UUID)")),
        v.description("One of the player's saved decks."),
      ),
    ),
  }),
  v.check(
    (d) => (d.deck_code === undefined) !== (d.deck_id === undefined),
    coded('invalid_value', 'give deck_code or deck_id, one of the two'),
  ),
);
/** A player's submission: their decks, each a code or one of their saved decks. */
export const EntryBody = v.strictObject({ decks: v.pipe(v.array(SubmittedDeck), v.minLength(1), v.maxLength(3)) });
export type EventInput = v.InferOutput<typeof EventBody>;
/** A new event's fields, their defaults filled. */
export type NewEvent = Required<EventInput>;
export type EventChange = v.InferOutput<typeof EventPatch>;
/** The fields that are an event's rules: a change of one leaves entries made before it checked under the older rules. */
export const RULE_FIELDS = ['format', 'pool_date', 'decks_per_player', 'distinct_mains'] as const;
/** What an organizer may change after the deadline. */
export const AFTER_DEADLINE = new Set(['description', 'withdraw', 'disqualify']);

/** A new event's body read: its fields with their defaults, the deadline in UTC and ahead of `now` (at most a year), the pool's day past. */
export function readEventBody(body: unknown, now: Date): Read<NewEvent> {
  const parsed = parseStrict(EventBody, body);
  if (!parsed.ok) return { ok: false, details: parsed.details };
  const out: NewEvent = { description: '', distinct_mains: false, lists: 'closed', ...parsed.output } as NewEvent;
  const issues = [deadlineIssue(out.deadline, now), poolIssue(out.pool_date, now)].filter((d) => d !== undefined);
  return issues.length > 0 ? { ok: false, details: issues } : { ok: true, value: { ...out, deadline: utcTime(out.deadline) as string } };
}

/** A deadline that is past, or more than a year ahead: its detail. */
function deadlineIssue(raw: string, now: Date): Detail | undefined {
  const at = Date.parse(utcTime(raw) as string);
  if (at <= now.getTime())
    return detail('deadline', 'invalid_value', `deadline must be ahead (it is ${utcTime(raw)}; now is ${now.toISOString()})`);
  if (at > now.getTime() + EVENT_LIMITS.deadlineDays * DAY_MS)
    return detail('deadline', 'invalid_value', `deadline is at most ${EVENT_LIMITS.deadlineDays} days ahead`);
  return undefined;
}

/** A pool's day that is today or ahead (its pool could still change): its detail. */
const poolIssue = (day: string, now: Date): Detail | undefined =>
  day < dayOf(now)
    ? undefined
    : detail('pool_date', 'invalid_value', `pool_date is a day before today (${dayOf(now)}, UTC): a day's pool is fixed once it has ended`);

/**
 * An organizer's change read: the deadline, when changed, in UTC and ahead of `now`; the pool's day past; each player
 * withdrawn or disqualified once, and not both.
 */
export function readEventPatch(body: unknown, now: Date): Read<EventChange> {
  const parsed = parseStrict(EventPatch, body);
  if (!parsed.ok) return { ok: false, details: parsed.details };
  const change = parsed.output;
  const issues: Detail[] = [];
  if (change.deadline !== undefined) issues.push(...[deadlineIssue(change.deadline, now)].filter((d) => d !== undefined));
  if (change.pool_date !== undefined) issues.push(...[poolIssue(change.pool_date, now)].filter((d) => d !== undefined));
  const seen = new Map<string, string>();
  const once = (userId: string, path: string) => {
    const before = seen.get(userId);
    if (before) issues.push(detail(path, 'duplicate', `${userId} is named at ${before} too: a player is withdrawn or disqualified once`));
    else seen.set(userId, path);
  };
  for (const [i, userId] of (change.withdraw ?? []).entries()) once(userId, `withdraw[${i}]`);
  for (const [i, { user_id }] of (change.disqualify ?? []).entries()) once(user_id, `disqualify[${i}].user_id`);
  if (issues.length > 0) return { ok: false, details: issues };
  return { ok: true, value: change.deadline === undefined ? change : { ...change, deadline: utcTime(change.deadline) as string } };
}
