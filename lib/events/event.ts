/**
 * An event (contract §13.4): made by its organizer (events:write, the key's account), read by anyone, changed by its
 * organizer alone — any field until the deadline; after it the description, withdrawals and disqualifications. A
 * change is written under the version read, and made again on a newer one when another came between.
 */
import { randomUUID } from 'node:crypto';
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { forbidden, unavailable, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { detail } from '#rules/details.ts';
import { AFTER_DEADLINE, type EventChange, RULE_FIELDS, readEventBody, readEventPatch, submissionsOpen } from '#rules/events.ts';
import { documentClient } from '#store/client.ts';
import { disqualifyEntry, removeEntry, writeEvent } from '#store/events.ts';
import type { StoredEvent } from '#store/items/event.ts';
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
  if (!(await writeEvent(event))) throw unavailable('the event could not be made; retry');
  return { status: 201, data: eventAnswer(event, now), headers: { location: eventPath(event.event_id) } };
});

export const readEvent = endpoint(R.readEvent, { init: [documentClient] }, async (req) => {
  const event = await eventOf(req.params.event_id);
  return { data: eventAnswer(event, new Date()), headers: { 'cache-control': 'no-store' } };
});

const FIELDS = ['name', 'description', 'format', 'pool_date', 'decks_per_player', 'distinct_mains', 'deadline', 'lists'] as const;

/** The event as changed (its fields; the entries' changes are the caller's). */
function changed(event: StoredEvent, change: EventChange, now: Date): StoredEvent {
  const next: StoredEvent = { ...event, updated_at: now.toISOString(), version: event.version + 1 };
  for (const f of FIELDS) if (change[f] !== undefined) Object.assign(next, { [f]: change[f] });
  if (RULE_FIELDS.some((f) => change[f] !== undefined && change[f] !== event[f])) next.rules_version = event.rules_version + 1;
  return next;
}

export const updateEvent = endpoint(R.updateEvent, { init: [documentClient] }, async (req) => {
  const now = new Date();
  const read = readEventPatch(req.body, now);
  if (!read.ok) throw validationFailed(read.details);
  const change = read.value;
  const id = req.params.event_id;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const event = await eventOf(id, true);
    if (event.organizer !== req.key.user_id) throw forbidden('not_organizer', "only the event's organizer changes it");
    if (!submissionsOpen(event.deadline, now)) {
      const late = Object.keys(change).filter((f) => !AFTER_DEADLINE.has(f));
      if (late.length > 0) throw deadlinePassed(event, `${late.join(', ')} no longer change${late.length === 1 ? 's' : ''}`);
    }
    const fields = FIELDS.some((f) => change[f] !== undefined);
    if (fields && !(await writeEvent(changed(event, change, now), event))) {
      await pause(attempt);
      continue;
    }
    await changeEntries(id, change, now);
    return { data: eventAnswer(fields ? await eventOf(id, true) : event, now) };
  }
  throw unavailable('the event is being changed by many requests at once; retry');
});

/** Withdrawals, then disqualifications: a user_id with no entry is 422 (those before it are made). */
async function changeEntries(eventId: string, change: EventChange, now: Date): Promise<void> {
  const missing = [];
  for (const [i, userId] of (change.withdraw ?? []).entries())
    if (!(await removeEntry(eventId, userId)))
      missing.push(detail(`withdraw[${i}]`, 'invalid_value', `${userId} has no entry in this event`));
  for (const [i, { user_id, reason }] of (change.disqualify ?? []).entries())
    if (!(await disqualifyEntry(eventId, user_id, reason, now)))
      missing.push(detail(`disqualify[${i}].user_id`, 'invalid_value', `${user_id} has no entry in this event`));
  if (missing.length > 0) throw validationFailed(missing);
}
