/**
 * An event (contract §13.4): made by its organizer (events:write, the key's account), read by anyone, changed by its
 * organizer alone — any field until the deadline; after it the description, withdrawals and disqualifications. A
 * change is whole or not at all (one transaction with its entries' changes), made on the version read, and made again
 * on a newer one when another came between; a change that changes nothing writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { forbidden, unavailable, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { type Detail, detail } from '#rules/details.ts';
import { AFTER_DEADLINE, type EventChange, RULE_FIELDS, readEventBody, readEventPatch, submissionsOpen } from '#rules/events.ts';
import { atMost } from '#store/at-most.ts';
import { documentClient } from '#store/client.ts';
import { changeEvent, type EntryChanges, getEntry, createEvent as storeEvent } from '#store/events.ts';
import type { StoredEntry, StoredEvent } from '#store/items/event.ts';
import { deadlinePassed, eventAnswer, eventOf, eventPath } from './answers.ts';

export const createEvent = endpoint(R.createEvent, { init: [documentClient] }, async (req) => {
  const now = new Date();
  const read = readEventBody(req.body, now);
  if (!read.ok) throw validationFailed(read.details);
  const at = now.toISOString();
  const event: StoredEvent = {
    ...read.value,
    event_id: randomUUID(),
    organizer: req.key.user_id,
    organizer_name: req.key.display_name,
    created_at: at,
    updated_at: at,
    version: 1,
    rules_version: 1,
  };
  if ((await storeEvent(event)) !== 'ok') throw unavailable('the event could not be made; retry');
  return { status: 201, data: eventAnswer(event, now), headers: { location: eventPath(event.event_id) } };
});

export const readEvent = endpoint(R.readEvent, { init: [documentClient] }, async (req) => {
  const event = await eventOf(req.params.event_id);
  return { data: eventAnswer(event, new Date()), headers: { 'cache-control': 'no-store' } };
});

const FIELDS = ['name', 'description', 'format', 'pool_date', 'decks_per_player', 'distinct_mains', 'deadline', 'lists'] as const;

/**
 * The event as changed, or none when nothing changes — its fields, or its entries (`entriesMove`): its version moves
 * with either (what a list kept by a function is known by: lib/events/lists.ts), its rules' version when one of its
 * rules does.
 */
function changed(event: StoredEvent, change: EventChange, now: Date, entriesMove: boolean): StoredEvent | undefined {
  const moved = FIELDS.filter((f) => change[f] !== undefined && change[f] !== event[f]);
  if (moved.length === 0 && !entriesMove) return undefined;
  const next: StoredEvent = { ...event, updated_at: now.toISOString(), version: event.version + 1 };
  for (const f of moved) Object.assign(next, { [f]: change[f] });
  if (moved.some((f) => (RULE_FIELDS as readonly string[]).includes(f))) next.rules_version = event.rules_version + 1;
  return next;
}

/**
 * The entries' changes that change something — each named player's entry read: one missing is a detail (nothing is
 * written then); a disqualification with the reason it has, or a reinstatement of an entry not disqualified, is none.
 */
async function entryChanges(eventId: string, change: EventChange): Promise<{ changes: EntryChanges; missing: Detail[] }> {
  const named = [
    ...(change.withdraw ?? []).map((user_id, i) => ({ user_id, path: `withdraw[${i}]` })),
    ...(change.disqualify ?? []).map(({ user_id }, i) => ({ user_id, path: `disqualify[${i}].user_id` })),
  ];
  const entries = new Map<string, StoredEntry | undefined>();
  await atMost(8, named, async ({ user_id }) => void entries.set(user_id, await getEntry(eventId, user_id)));
  const missing = named
    .filter(({ user_id }) => !entries.get(user_id))
    .map(({ user_id, path }) => detail(path, 'invalid_value', `${user_id} has no entry in this event`));
  const disqualify = (change.disqualify ?? []).filter(
    ({ user_id, reason }) => (entries.get(user_id)?.disqualified?.reason ?? null) !== reason,
  );
  return { changes: { withdraw: change.withdraw ?? [], disqualify }, missing };
}

export const updateEvent = endpoint(R.updateEvent, { init: [documentClient] }, async (req) => {
  const now = new Date();
  const id = req.params.event_id;
  // Whose event it is, before what is asked of it (an event's organizer never changes); read again only when a write
  // lost a race.
  let event = await eventOf(id, true);
  if (event.organizer !== req.key.user_id) throw forbidden('not_organizer', "only the event's organizer changes it");
  const read = readEventPatch(req.body, now);
  if (!read.ok) throw validationFailed(read.details);
  const change = read.value;
  const closes = Object.keys(change).some((f) => !AFTER_DEADLINE.has(f));
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    if (attempt > 0) event = await eventOf(id, true);
    const at = new Date();
    if (closes && !submissionsOpen(event.deadline, at)) {
      const late = Object.keys(change).filter((f) => !AFTER_DEADLINE.has(f));
      throw deadlinePassed(event, `${late.join(', ')} no longer change${late.length === 1 ? 's' : ''}`);
    }
    const { changes, missing } = await entryChanges(id, change);
    if (missing.length > 0) throw validationFailed(missing);
    const next = changed(event, change, at, changes.withdraw.length + changes.disqualify.length > 0);
    if (!next) return { data: eventAnswer(event, at) };
    const outcome = await changeEvent(event, next, changes, at, closes);
    if (outcome === 'ok') return { data: eventAnswer(next, at) };
    // Another change of the event or of an entry came between, or the deadline: read them again.
    await pause(attempt);
  }
  throw unavailable('the event is being changed by many requests at once; retry');
});
