/** An event and an entry as answers show them (contract §13.4), and what every event route reads first. */
import type * as v from 'valibot';
import { ApiError } from '#http/errors.ts';
import { CODE_PATHS } from '#routes/code-paths.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#routes/route.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { submissionsOpen } from '#rules/events.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import type { Entry, Event } from '#shapes/events.ts';
import { getEvent, listEntries } from '#store/events.ts';
import type { StoredEntry, StoredEvent } from '#store/items/event.ts';

export const eventPath = (eventId: string): string => `/api/v1/events/${eventId}`;
export const eventPage = (eventId: string): string => `/e/${eventId}`;

/**
 * How long after its deadline an event's entries may still land: a submission checked just before the deadline is
 * sent at once, but the store may take it later — at most until its function ends, the routes' function timeout and
 * 5 s more (as an erasure's wait: lib/workers/erasure.ts). EVENT_SETTLE_SECONDS sets another (a local runtime's tests).
 */
export function settleMs(): number {
  const seconds = Number(process.env.EVENT_SETTLE_SECONDS);
  return (process.env.EVENT_SETTLE_SECONDS && Number.isFinite(seconds) && seconds >= 0 ? seconds : FUNCTION_TIMEOUT_SECONDS + 5) * 1000;
}
/** When an event's entries are final: its deadline, and the settle after it. */
export const lockedAt = (event: StoredEvent): string => new Date(Date.parse(event.deadline) + settleMs()).toISOString();
export const isLocked = (event: StoredEvent, now: Date): boolean => now.getTime() >= Date.parse(lockedAt(event));
/** Whether anyone may read an event's lists at an instant: open lists, once locked. */
export const listsPublic = (event: StoredEvent, now: Date): boolean => event.lists === 'open' && isLocked(event, now);

/** The event of the path, or its 404. */
export async function eventOf(eventId: string, consistent = false): Promise<StoredEvent> {
  const event = await getEvent(eventId, consistent);
  if (!event) throw new ApiError(404, 'not_found', 'no such event');
  return event;
}

/** The 409 of a change the deadline has closed. */
export const deadlinePassed = (event: StoredEvent, what: string): ApiError =>
  new ApiError(409, 'deadline_passed', `${what}: the event's deadline (${event.deadline}) has passed`);

export function eventAnswer(event: StoredEvent, now: Date): v.InferOutput<typeof Event> {
  const path = eventPath(event.event_id);
  return {
    event_id: event.event_id,
    name: event.name,
    description: event.description,
    organizer: { display_name: event.organizer_name },
    format: event.format,
    pool_date: event.pool_date,
    decks_per_player: event.decks_per_player,
    distinct_mains: event.distinct_mains,
    deadline: event.deadline,
    locked_at: lockedAt(event),
    lists: event.lists,
    submissions_open: submissionsOpen(event.deadline, now),
    lists_public: listsPublic(event, now),
    rules_version: event.rules_version,
    created_at: event.created_at,
    updated_at: event.updated_at,
    links: { page: eventPage(event.event_id), entries: `${path}/entries`, entries_csv: `${path}/entries.csv` },
  };
}

/** Where a deck code's page and image are. */
export function deckLinks(deckCode: string): { page: string; image: string } {
  const url = urlCodeOf(parseDeckCode(deckCode));
  return { page: CODE_PATHS.page.replace('{code}', url), image: CODE_PATHS.image.replace('{code}', url) };
}

/** Who an entry is answered to: its player (the saved decks' ids too), the organizer (the player's id too), anyone. */
export type EntryView = 'player' | 'organizer' | 'public';

/** An entry as answered to a reader. */
export function entryAnswer(event: StoredEvent, entry: StoredEntry, now: Date, view: EntryView): v.InferOutput<typeof Entry> {
  const own = view === 'player';
  return {
    event_id: event.event_id,
    ...(view === 'public' ? {} : { user_id: entry.user_id }),
    display_name: entry.display_name,
    decks: entry.decks.map((d) => ({
      deck_code: d.deck_code,
      main_faction: d.main_faction as never,
      ally_faction: d.ally_faction as never,
      archetype: d.archetype,
      ...(own && d.deck_id ? { deck_id: d.deck_id } : {}),
      links: deckLinks(d.deck_code),
    })),
    lock_hash: entry.lock_hash,
    locked: isLocked(event, now),
    submitted_at: entry.submitted_at,
    checked_under_current_rules: entry.rules_version === event.rules_version,
    disqualified: entry.disqualified ?? null,
  };
}

/** How long a function keeps an event's public lists: an erased player's entry is gone from them within it (contract §13.1). */
export const PUBLIC_LISTS_MS = 30_000;
const kept = new Map<string, { entries: StoredEntry[]; until: number }>();

/**
 * An event's entries, read whole; once its lists are public, kept by the function for PUBLIC_LISTS_MS under the event's
 * version (which every change of the organizer's moves: a withdrawal or disqualification shows on the next read), so that
 * a page read by many reads the store once in that time, not once a reader.
 */
export async function entriesOf(event: StoredEvent, now: Date): Promise<StoredEntry[]> {
  if (!listsPublic(event, now)) return listEntries(event.event_id);
  const key = `${event.event_id}#${event.version}`;
  const hit = kept.get(key);
  if (hit && now.getTime() < hit.until) return hit.entries;
  const entries = await listEntries(event.event_id);
  if (kept.size >= 16) kept.delete(kept.keys().next().value as string);
  kept.set(key, { entries, until: now.getTime() + PUBLIC_LISTS_MS });
  return entries;
}
