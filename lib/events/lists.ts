/**
 * An event's lists (contract §13.4): every entry, as JSON and as CSV for bracket tools — the organizer's at any time
 * (a key of their account, events:write), anyone's after the deadline when the lists are open. Read as asked, never
 * kept at the edge (they read a key; before the deadline they change).
 */
import { authenticate, authorize } from '#http/auth.ts';
import { forbidden } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { entriesCsv } from '#rules/events.ts';
import { documentClient } from '#store/client.ts';
import type { StoredEvent } from '#store/items/event.ts';
import { type EntryView, entriesOf, entryAnswer, eventOf, isLocked, listsPublic, lockedAt } from './answers.ts';

/**
 * The event and who reads its lists: its organizer (a key of theirs with events:write) at any time, anyone once they
 * are public; else 403 (a key sent is checked: a bad one is 401).
 */
async function readable(eventId: string, authorization: string | undefined, now: Date): Promise<{ event: StoredEvent; view: EntryView }> {
  const event = await eventOf(eventId);
  if (authorization) {
    const key = await authenticate(authorization);
    if (key.user_id === event.organizer && key.scopes.includes('events:write')) return { event, view: 'organizer' };
    if (!listsPublic(event, now)) authorize(key, 'events:write', undefined, false);
  }
  if (listsPublic(event, now)) return { event, view: 'public' };
  const when =
    event.lists === 'closed'
      ? "this event's lists are closed: its organizer alone reads them"
      : `this event's lists are public once its entries are locked (${lockedAt(event)}, after its deadline); until then its organizer alone reads them`;
  throw forbidden('lists_not_public', when);
}

const NO_STORE = { 'cache-control': 'no-store' };

export const listEventEntries = endpoint(R.listEntries, { init: [documentClient] }, async (req) => {
  const now = new Date();
  const { event, view } = await readable(req.params.event_id, req.headers.authorization, now);
  const entries = await entriesOf(event, now);
  return {
    data: entries.map((e) => entryAnswer(event, e, now, view)),
    meta: { event_id: event.event_id, entries: entries.length, locked: isLocked(event, now), deadline: event.deadline },
    headers: NO_STORE,
  };
});

export const listEventEntriesCsv = endpoint(R.listEntriesCsv, { init: [documentClient] }, async (req) => {
  const now = new Date();
  const { event, view } = await readable(req.params.event_id, req.headers.authorization, now);
  const entries = await entriesOf(event, now);
  const body = entriesCsv(
    entries.map((e) => entryAnswer(event, e, now, view)),
    event.decks_per_player,
  );
  const file = `event-${event.event_id}-entries.csv`;
  return {
    data: undefined,
    headers: { ...NO_STORE, 'content-disposition': `attachment; filename="${file}"` },
    raw: { contentType: 'text/csv; charset=utf-8', body },
  };
});
