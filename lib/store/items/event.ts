/**
 * Events and their entries (contract §13.4; decks table): an event's item and each player's entry under one
 * partition, so that a list is one Query of it and a submission's transaction checks the event beside its entry.
 *   pk EVENT#<event_id>  sk EVENT            { event_id, organizer, organizer_name, name, description, format, pool_date,
 *                                              decks_per_player, distinct_mains, deadline, lists, created_at,
 *                                              updated_at, version, rules_version }
 *   pk EVENT#<event_id>  sk ENTRY#<user_id>  { user_id, display_name, decks: [{ deck_code, main_faction,
 *                                              ally_faction, archetype, deck_id? }], lock_hash, submitted_at,
 *                                              rules_version, disqualified? }
 *   pk ENTERED#<user_id> sk <event_id>       { }   (an account's entries, found by its erasure: one a player an event)
 *   pk ORGANIZED#<user_id> sk <event_id>     { }   (an organizer's events, found by its erasure)
 * `deadline` is an ISO 8601 time in UTC with milliseconds (`toISOString`), so that it and a submission's time compare
 * as strings in a condition; `version` counts the event's writes (the condition each is made under).
 * Its repository is lib/store/events.ts.
 */
import type { EventFormat } from '#rules/events.ts';
import { itemKind } from './kind.ts';

export const EVENT = { ...itemKind('EVENT#'), sk: 'EVENT', entrySk: 'ENTRY#' };
export const eventKey = (eventId: string) => ({ pk: EVENT.pk(eventId), sk: EVENT.sk });
export const entryKey = (eventId: string, userId: string) => ({ pk: EVENT.pk(eventId), sk: `${EVENT.entrySk}${userId}` });
/** An account's mark of each event it has an entry in: written and deleted with the entry, so that its erasure finds them. */
export const ENTERED = itemKind('ENTERED#');
export const enteredKey = (userId: string, eventId: string) => ({ pk: ENTERED.pk(userId), sk: eventId });
/** An organizer's mark of each event it made: written with the event, so that its erasure finds them. */
export const ORGANIZED = itemKind('ORGANIZED#');
export const organizedKey = (userId: string, eventId: string) => ({ pk: ORGANIZED.pk(userId), sk: eventId });

export type Lists = 'open' | 'closed';

export interface StoredEvent {
  event_id: string;
  organizer: string;
  organizer_name: string;
  name: string;
  description: string;
  format: EventFormat;
  pool_date: string;
  decks_per_player: number;
  distinct_mains: boolean;
  deadline: string;
  lists: Lists;
  created_at: string;
  updated_at: string;
  version: number;
  /** Counts the changes of its rules (format, pool, decks a player, distinct mains): an entry keeps the one it was checked under. */
  rules_version: number;
}

export interface EntryDeck {
  deck_code: string;
  main_faction: string;
  ally_faction: string;
  archetype: { id: string; name: string; by: 'rule' | 'cluster' } | null;
  deck_id?: string;
}

export interface StoredEntry {
  user_id: string;
  display_name: string;
  decks: EntryDeck[];
  lock_hash: string;
  submitted_at: string;
  /** The event's rules_version it was checked under. */
  rules_version: number;
  disqualified?: { reason: string; at: string };
}
