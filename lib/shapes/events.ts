/** What the events' routes answer (contract §13.4): an event, a player's entry, an event's lists. */
import * as v from 'valibot';
import { EVENT_FORMATS } from '#rules/events.ts';
import { FACTION_IDS, type FactionId } from '#rules/factions.ts';
import { API_VERSION } from './envelope-constants.ts';
import { Archetype } from './responses.ts';

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const faction = v.picklist(FACTION_IDS as unknown as [FactionId, ...FactionId[]]);

export const Event = v.strictObject({
  event_id: v.string(),
  name: v.string(),
  description: v.string(),
  organizer: v.strictObject({ display_name: v.string() }),
  format: v.picklist(EVENT_FORMATS),
  pool_date: v.pipe(v.string(), v.description('The card pool: the catalogue version in force at the end of this day (UTC).')),
  decks_per_player: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3)),
  distinct_mains: v.boolean(),
  deadline: v.pipe(timestamp, v.description('In UTC: submissions are taken until it, not at it.')),
  locked_at: v.pipe(
    timestamp,
    v.description(
      'When the entries are final, lock hashes and all: the deadline and the longest a submission sent before it may take to land (15 s). Open lists are public from then on.',
    ),
  ),
  lists: v.picklist(['open', 'closed']),
  /** Whether submissions are taken now. */
  submissions_open: v.boolean(),
  /** Whether anyone may read the lists now (open lists after the deadline). */
  lists_public: v.boolean(),
  /** How many of its changes were to its rules (format, pool, decks a player, distinct mains). */
  rules_version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  created_at: timestamp,
  updated_at: timestamp,
  links: v.strictObject({ page: v.string(), entries: v.string(), entries_csv: v.string() }),
});

const EntryDeck = v.strictObject({
  deck_code: v.string(),
  main_faction: faction,
  ally_faction: faction,
  archetype: Archetype,
  /** The player's saved deck it was submitted as (shown to the player alone). */
  deck_id: v.optional(v.string()),
  links: v.strictObject({ page: v.string(), image: v.string() }),
});

export const Entry = v.strictObject({
  event_id: v.string(),
  /** The player's account: shown to the player and the organizer, not in the lists anyone reads. */
  user_id: v.optional(v.string()),
  display_name: v.string(),
  decks: v.array(EntryDeck),
  lock_hash: v.pipe(
    v.string(),
    v.description(
      'SHA-256 (hex) of the decks\' canonical codes, one a line ("\\n"-joined) in the order given: what a player proves they sent by.',
    ),
  ),
  /** Whether the event's locked_at has passed: the entry is then what it is for good. */
  locked: v.boolean(),
  submitted_at: timestamp,
  /** False when the organizer changed the event's rules after it was checked: submit again. */
  checked_under_current_rules: v.boolean(),
  disqualified: v.nullable(v.strictObject({ reason: v.string(), at: timestamp })),
});

export const EntriesMeta = v.strictObject({
  api_version: v.literal(API_VERSION),
  event_id: v.string(),
  entries: v.pipe(v.number(), v.integer(), v.minValue(0)),
  locked: v.boolean(),
  deadline: timestamp,
});
