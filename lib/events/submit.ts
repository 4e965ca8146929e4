/**
 * A player's submission to an event (contract §13.4, events:submit, the key's account): each deck checked against the
 * game's rules and the event's format in the card pool of its date, their number and main nations. The write is one
 * transaction with a check of the event (its deadline still ahead, its rules those checked against): a submission in
 * the last instant is taken whole or is 409, never half.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { catalogueAt } from '#catalogue/pools.ts';
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { unavailable, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { logger } from '#logger';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { archetypeAnswer } from '#rules/archetype-of.ts';
import { type Deck, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { readDeckCode } from '#rules/deck-write.ts';
import { at, type Detail, detail } from '#rules/details.ts';
import { EntryBody, lockHash, poolInstant, submissionsOpen } from '#rules/events.ts';
import { parseStrict } from '#rules/strict-input.ts';
import { submissionIssues } from '#rules/submission.ts';
import { documentClient } from '#store/client.ts';
import { getDeck } from '#store/decks.ts';
import { getEntry, submitEntry } from '#store/events.ts';
import { isStoreUnavailable } from '#store/faults.ts';
import type { EntryDeck, StoredEntry } from '#store/items/event.ts';
import { deadlinePassed, entryAnswer, eventOf } from './answers.ts';

/**
 * The card pool of a day; a store that cannot say which it is (busy, slow, unreachable) is 503, not a fault of ours —
 * and only that: anything else (a broken version, a bug) is what it is, not "retry".
 */
async function poolAt(day: string) {
  try {
    return await catalogueAt(poolInstant(day));
  } catch (e) {
    if (!isStoreUnavailable(e)) throw e;
    logger.warn('the card pool could not be read', { day, error: e as Error });
    throw unavailable(`the card pool of ${day} could not be read; retry`);
  }
}

interface Sent {
  deck: Deck;
  deck_id?: string;
  kept?: EntryDeck['archetype'];
}

/**
 * The decks of a submission, as sent: each code read, each saved deck the account's — one that cannot be read is a
 * detail, and a hole in its place (the event's rules still judge the others, and count it).
 */
async function decksOf(body: unknown, userId: string): Promise<{ sent: (Sent | undefined)[]; unread: Detail[] }> {
  const parsed = parseStrict(EntryBody, body);
  if (!parsed.ok) throw validationFailed(parsed.details);
  const unread: Detail[] = [];
  const sent: (Sent | undefined)[] = [];
  for (const [i, item] of parsed.output.decks.entries()) {
    const path = at('decks', i);
    if (item.deck_code !== undefined) {
      const read = readDeckCode(item.deck_code, at(path, 'deck_code'));
      if ('path' in read) unread.push(read);
      sent.push('path' in read ? undefined : { deck: read });
      continue;
    }
    const saved = await getDeck(userId, item.deck_id as string);
    if (!saved) unread.push(detail(at(path, 'deck_id'), 'invalid_value', 'no deck of yours has this id'));
    sent.push(saved ? { deck: parseDeckCode(saved.deck_code), deck_id: item.deck_id, kept: saved.archetype ?? null } : undefined);
  }
  return { sent, unread };
}

export const putEntry = endpoint(R.putEntry, { init: [catalogue, documentClient] }, async (req) => {
  const { event_id: eventId } = req.params;
  const userId = req.key.user_id;
  // Read once before the body is judged (an unknown event is 404 first), and again only when a write lost a race.
  let event = await eventOf(eventId, true);
  const { sent, unread } = await decksOf(req.body, userId);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const now = new Date();
    if (attempt > 0) event = await eventOf(eventId, true);
    if (!submissionsOpen(event.deadline, now)) throw deadlinePassed(event, 'submissions are closed');
    const issues = [
      ...unread,
      ...submissionIssues(
        event,
        sent.map((s) => s?.deck),
        await poolAt(event.pool_date),
      ),
    ];
    if (issues.length > 0) throw validationFailed(issues);
    const rules = archetypeRules();
    const decks: EntryDeck[] = (sent as Sent[]).map(({ deck, deck_id, kept }) => ({
      deck_code: encodeDeckCode(deck),
      main_faction: deck.main,
      ally_faction: deck.ally,
      archetype: kept ?? archetypeAnswer(rules, deck, 'en'),
      ...(deck_id ? { deck_id } : {}),
    }));
    const entry: StoredEntry = {
      user_id: userId,
      display_name: req.key.display_name,
      decks,
      lock_hash: lockHash(decks.map((d) => d.deck_code)),
      submitted_at: now.toISOString(),
      rules_version: event.rules_version,
    };
    const written = await submitEntry(event, entry, now);
    // As stored: a disqualification the organizer made stays with it.
    if (written === 'ok') return { data: entryAnswer(event, (await getEntry(eventId, userId)) ?? entry, now, 'player') };
    // The deadline came, or the rules changed, since the event was read (read again: which), or others held it.
    await pause(attempt);
  }
  throw unavailable('the event is being changed by many requests at once; retry');
});
