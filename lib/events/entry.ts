/**
 * A player's own entry in an event (contract §13.4, events:submit, the key's account): read, and withdrawn until the
 * deadline (one transaction with a check of the event's deadline). Its submission is submit.ts.
 */
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { ApiError, forbidden, unavailable } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { submissionsOpen } from '#rules/events.ts';
import { documentClient } from '#store/client.ts';
import { getEntry, withdrawOwnEntry } from '#store/events.ts';
import { deadlinePassed, entryAnswer, eventOf } from './answers.ts';

const noEntry = () => new ApiError(404, 'not_found', 'no entry of yours in this event');

export const readEntry = endpoint(R.readEntry, { init: [documentClient] }, async (req) => {
  const event = await eventOf(req.params.event_id);
  const entry = await getEntry(event.event_id, req.key.user_id);
  if (!entry) throw noEntry();
  return { data: entryAnswer(event, entry, new Date(), 'player'), headers: { 'cache-control': 'no-store' } };
});

export const deleteEntry = endpoint(R.deleteEntry, { init: [documentClient] }, async (req) => {
  const userId = req.key.user_id;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const now = new Date();
    const event = await eventOf(req.params.event_id, true);
    if (!submissionsOpen(event.deadline, now)) throw deadlinePassed(event, 'the entry no longer changes');
    const entry = await getEntry(event.event_id, userId);
    if (!entry) throw noEntry();
    if (entry.disqualified) throw forbidden('not_organizer', 'this entry is disqualified: the organizer alone withdraws or reinstates it');
    const done = await withdrawOwnEntry(event, userId, now);
    if (done === 'ok') return { data: entryAnswer(event, entry, now, 'player') };
    await pause(attempt);
  }
  throw unavailable('the event is being changed by many requests at once; retry');
});
