/**
 * Events (contract §13.4): decks submitted for a tournament, checked against its format and the card pool of its date,
 * locked at the deadline, listed for the organizer at any time and for anyone after it when its lists are open.
 * Nothing of an event is kept at the edge (its answers change until the deadline, and its lists read a key).
 */
import { DECK } from '#store/items/deck.ts';
import { ENTERED, EVENT, ORGANIZED } from '#store/items/event.ts';
import { EventId, UserId } from './params.ts';
import { type Declared, decks, routes } from './route.ts';

const EVENT_PATH = '/api/v1/events/{event_id}';
const ENTRY = `${EVENT_PATH}/entries/{user_id}`;
const event = { event_id: EventId } as const;
const entry = { event_id: EventId, user_id: UserId } as const;
const reading = decks(['GetItem'], [EVENT.grant]);
const LISTS =
  "The organizer's (a key of the account that made the event, events:write) at any time; anyone's after the deadline when the event's lists are `open` (else 403 `lists_not_public`, saying when they open, if ever).";

export const EVENT_ROUTES = routes({
  createEvent: {
    method: 'POST',
    path: '/api/v1/events',
    scope: 'events:write',
    body: 'EventBody',
    grants: [decks(['PutItem'], [EVENT.grant, ORGANIZED.grant])],
    summary: 'Create an event',
    description:
      "An event of the key's account (its organizer): its name, format, card pool's date, decks a player (1–3), whether their main nations differ, the deadline (RFC 3339, ahead, at most a year; answered in UTC), whether its lists open after it. Players then submit their decks until the deadline.",
    tag: 'Events',
    success: { status: 201, data: 'Event', headers: ['Location'] },
  } as const satisfies Declared,
  readEvent: {
    method: 'GET',
    path: EVENT_PATH,
    params: event,
    grants: [reading],
    summary: 'An event',
    description: "The event's rules and deadline, whether it takes submissions now and whether its lists are public now. No key.",
    tag: 'Events',
    success: { status: 200, data: 'Event' },
    errors: ['not_found'],
  } as const satisfies Declared,
  updateEvent: {
    method: 'PATCH',
    path: EVENT_PATH,
    scope: 'events:write',
    params: event,
    body: 'EventPatch',
    grants: [decks(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], [EVENT.grant]), decks(['DeleteItem'], [ENTERED.grant])],
    summary: 'Change an event',
    description:
      "The organizer's alone (another account's key is 403 `not_organizer`). Until the deadline any field; after it the description, `withdraw` (players whose entries are taken out) and `disqualify` (an entry and its reason, shown in the lists; a null reason reinstates) — another field is 409 `deadline_passed`. A change of the rules (format, pool_date, decks_per_player, distinct_mains) leaves the entries made before it marked `checked_under_current_rules: false` until their players submit again. A change is whole or not at all: a user_id with no entry, or named twice, is 422 and nothing is written. A change that changes nothing writes nothing.",
    tag: 'Events',
    success: { status: 200, data: 'Event' },
    errors: ['not_found', 'not_organizer', 'deadline_passed'],
  } as const satisfies Declared,
  putEntry: {
    method: 'PUT',
    path: ENTRY,
    scope: 'events:submit',
    params: entry,
    body: 'EntryBody',
    catalogue: true,
    grants: [
      decks(['GetItem', 'ConditionCheckItem', 'UpdateItem'], [EVENT.grant]),
      decks(['PutItem'], [ENTERED.grant]),
      decks(['GetItem'], [DECK.grant]),
    ],
    summary: 'Submit decks to an event',
    description:
      "The key's account's submission (`{ decks: [{ deck_code } | { deck_id }] }`, a code in the %% form or one of the account's saved decks, another account's deck being none): each deck checked against the game's rules and the event's format in the card pool of its date, their number and, when the event says so, their main nations — 422 naming every failing deck, card and rule. A new submission replaces the last (a disqualification stays: the organizer lifts it). Until the deadline (at it and after, 409 `deadline_passed`). The answer carries the lock hash the entry keeps.",
    tag: 'Events',
    success: { status: 200, data: 'Entry' },
    errors: ['not_found', 'deadline_passed'],
  } as const satisfies Declared,
  readEntry: {
    method: 'GET',
    path: ENTRY,
    scope: 'events:submit',
    params: entry,
    grants: [reading],
    summary: 'Your entry',
    description: "The key's account's entry in the event, with its lock hash (404 `not_found` when there is none).",
    tag: 'Events',
    success: { status: 200, data: 'Entry' },
    errors: ['not_found'],
  } as const satisfies Declared,
  deleteEntry: {
    method: 'DELETE',
    path: ENTRY,
    scope: 'events:submit',
    params: entry,
    grants: [decks(['GetItem', 'ConditionCheckItem', 'DeleteItem'], [EVENT.grant]), decks(['DeleteItem'], [ENTERED.grant])],
    summary: 'Withdraw your entry',
    description:
      "The key's account's entry taken out, until the deadline (at it and after, 409 `deadline_passed`; none, 404 `not_found`; a disqualified entry is the organizer's to withdraw or reinstate: 403 `not_organizer`).",
    tag: 'Events',
    success: { status: 200, data: 'Entry' },
    errors: ['not_found', 'not_organizer', 'deadline_passed'],
  } as const satisfies Declared,
  listEntries: {
    method: 'GET',
    path: `${EVENT_PATH}/entries`,
    keyFor: 'events:write',
    params: event,
    grants: [decks(['GetItem', 'Query'], [EVENT.grant])],
    summary: "An event's lists",
    description: `Every entry (player's display name, decks with code, factions and archetype, lock hash, disqualification; the player's user_id to the organizer alone), by user_id. ${LISTS}`,
    tag: 'Events',
    success: { status: 200, data: 'Entry[]', meta: 'EntriesMeta' },
    errors: ['not_found', 'lists_not_public'],
  } as const satisfies Declared,
  listEntriesCsv: {
    method: 'GET',
    path: `${EVENT_PATH}/entries.csv`,
    keyFor: 'events:write',
    params: event,
    grants: [decks(['GetItem', 'Query'], [EVENT.grant])],
    summary: "An event's lists as CSV",
    description: `For bracket tools (RFC 4180, CRLF): a header, then one row a player — display name, user_id (the organizer's reading alone), each deck's code, main and ally nation and archetype, the lock hash, whether it was checked under the event's current rules, a disqualification's reason. A cell a spreadsheet would run as a formula is led by an apostrophe. ${LISTS}`,
    tag: 'Events',
    success: { status: 200, data: 'Text', contentType: 'text/csv; charset=utf-8' },
    errors: ['not_found', 'lists_not_public'],
  } as const satisfies Declared,
  readEventPage: {
    method: 'GET',
    path: '/e/{event_id}',
    params: event,
    grants: [decks(['GetItem', 'Query'], [EVENT.grant])],
    htmlErrors: [404],
    errors: ['not_found'],
    summary: "An event's page",
    description:
      "The event for people: its rules and deadline, and, once its lists are public, every entry's decks, each a link to its page and image. No key (a closed event's lists are never on it).",
    tag: 'Events',
    success: {
      status: 200,
      data: 'Text',
      contentType: 'text/html; charset=utf-8',
      headers: ['Content-Security-Policy', 'X-Frame-Options'],
    },
  } as const satisfies Declared,
});
