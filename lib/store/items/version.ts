/**
 * The version item (decks table): one per kept version of a deck (contract §9.2), under its owner and
 * deck, so that an owner path can only reach its own decks' versions and a page of them is one Query.
 *   pk VERSION#<user_id>#<deck_id>  sk V#<version, 10 digits>
 *   { version, user_id, deck_id, slug, created_at, updated_at, name, main_faction, ally_faction, deck_code,
 *     tags, visibility, sort_order, guide (without its description), display, changed, added, removed,
 *     prior_visibility (absent on version 1), description | description_at, archive | archive_at, trim?, retired? }
 * `changed` and the card changes are taken against the version before, when the version is written.
 *
 * Text is not copied when it did not change: the guide's description (up to 20,000 characters) and the
 * archive (its reasons up to 18 × 1,000) are held by the version that set them; a later version that
 * keeps them holds only that version's number (`description_at`, `archive_at`), and the deck item
 * remembers where its current texts are held (`texts_at`). A version past the last 100 is dropped by the
 * store-change worker (trimVersions) — unless a kept version still reads its texts: it then stays,
 * `retired`, hidden from lists and reads, until no kept version needs it.
 */
import { isDeepStrictEqual } from 'node:util';
import { cardChanges } from '#rules/card-changes.ts';
import { changedFields, type VersionedField } from '#rules/changed-fields.ts';
import type { CardCount } from '#rules/deck-code.ts';
import { type PlainName, plainOf } from '#rules/deck-fields.ts';
import type { Archive, DeckContent, Guide } from '#rules/deck-model.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import type { Visibility } from '#rules/schemas.ts';
import type { StoredDeck, TextsAt } from './deck.ts';
import { itemKind } from './kind.ts';

/** The versions of a deck that are kept (contract §9.2); older ones are dropped. */
export const VERSIONS_KEPT = 100;

/** The mark of a version whose write pushes an older one out of the last VERSIONS_KEPT. */
export const TRIM_DUE = 'due';

export const VERSION = { ...itemKind('VERSION#'), sk: 'V#' };
export const versionsPk = (userId: string, deckId: string) => VERSION.pk(`${userId}#${deckId}`);
export const versionSk = (version: number) => `${VERSION.sk}${String(version).padStart(10, '0')}`;
export const versionKey = (userId: string, deckId: string, version: number) => ({ pk: versionsPk(userId, deckId), sk: versionSk(version) });

/** A version as lists show it, and what a read of one adds (its content without the texts). */
export interface VersionSummary {
  version: number;
  updated_at: string;
  deck_code: string;
  name: string;
  main_faction: DeckContent['main_faction'];
  ally_faction: DeckContent['ally_faction'];
  visibility: Visibility;
  changed: VersionedField[];
  cards: { added: CardCount[]; removed: CardCount[] };
  /** The visibility of the version before (none for the first kept). */
  prior_visibility?: Visibility;
}

/** A version whole: the deck as it was (its texts resolved), without views and likes (not versioned). */
export interface StoredVersion
  extends Omit<StoredDeck, 'views' | 'likes' | 'likes_changes' | 'views_7d' | 'views_rev' | 'author_name' | 'texts_at'> {
  changed: VersionedField[];
}

/** A version item as read: its summary and content, its texts or where they are held. */
export interface VersionItem {
  summary: VersionSummary;
  deck: Omit<StoredVersion, 'guide' | 'archive'> & { guide: Omit<Guide, 'description'> | null };
  description: string | { at: number };
  archive: Archive | { at: number };
  retired: boolean;
}

const descriptionOf = (d: Pick<DeckContent, 'guide'>) => d.guide?.description ?? '';

/**
 * The version item `next` makes over `previous` (none for a create), and where the deck's texts are held
 * from then on (the deck item's `texts_at`).
 */
export function versionItem(next: StoredDeck, previous: StoredDeck | undefined): { item: Record<string, unknown>; texts_at: TextsAt } {
  const held = previous?.texts_at;
  const keepsDescription = held !== undefined && descriptionOf(previous as StoredDeck) === descriptionOf(next);
  const keepsArchive = held !== undefined && isDeepStrictEqual((previous as StoredDeck).archive, next.archive);
  const texts_at: TextsAt = {
    description: keepsDescription ? held.description : next.version,
    archive: keepsArchive ? held.archive : next.version,
  };
  const changes =
    previous && previous.deck_code !== next.deck_code
      ? cardChanges(parsedCode(previous.deck_code).deck.cards, parsedCode(next.deck_code).deck.cards)
      : { added: [], removed: [] };
  const { guide } = next;
  const item: Record<string, unknown> = {
    ...versionKey(next.user_id, next.id, next.version),
    version: next.version,
    user_id: next.user_id,
    deck_id: next.id,
    // Not `share_slug`: that attribute puts an item in the by_share_slug index, which must find only decks.
    slug: next.share_slug,
    created_at: next.created_at,
    updated_at: next.updated_at,
    name: next.name,
    main_faction: next.main_faction,
    ally_faction: next.ally_faction,
    deck_code: next.deck_code,
    archetype: next.archetype ?? null,
    ...plainOf(next),
    guide: guide && { system: guide.system, core_cards: guide.core_cards, reserve_recommendations: guide.reserve_recommendations },
    display: next.display,
    changed: previous ? changedFields(previous, next) : [],
    added: changes.added,
    removed: changes.removed,
    ...(previous ? { prior_visibility: previous.visibility } : {}),
    ...(keepsDescription ? { description_at: texts_at.description } : { description: descriptionOf(next) }),
    ...(keepsArchive ? { archive_at: texts_at.archive } : { archive: next.archive }),
    // What the store-change worker's filter picks (lib/workers/): a version that pushes the oldest out.
    ...(next.version > VERSIONS_KEPT ? { trim: TRIM_DUE } : {}),
  };
  return { item, texts_at };
}

/** A version item's attributes as stored. */
type Attributes = Omit<VersionSummary, 'cards'> &
  Pick<StoredVersion, 'user_id' | 'created_at' | PlainName | 'display' | 'archetype'> & {
    deck_id: string;
    slug: string;
    guide: Omit<Guide, 'description'> | null;
    added?: CardCount[];
    removed?: CardCount[];
    description?: string;
    description_at?: number;
    archive?: Archive;
    archive_at?: number;
    retired?: boolean;
  };

export function fromVersionItem(item: Record<string, unknown>): VersionItem {
  const i = item as unknown as Attributes;
  const summary: VersionSummary = {
    version: i.version,
    updated_at: i.updated_at,
    deck_code: i.deck_code,
    name: i.name,
    main_faction: i.main_faction,
    ally_faction: i.ally_faction,
    visibility: i.visibility,
    changed: i.changed ?? [],
    cards: { added: i.added ?? [], removed: i.removed ?? [] },
    ...(i.prior_visibility ? { prior_visibility: i.prior_visibility } : {}),
  };
  return {
    summary,
    deck: {
      id: i.deck_id,
      user_id: i.user_id,
      share_slug: i.slug,
      created_at: i.created_at,
      updated_at: i.updated_at,
      version: i.version,
      name: i.name,
      main_faction: i.main_faction,
      ally_faction: i.ally_faction,
      deck_code: i.deck_code,
      archetype: i.archetype ?? null,
      ...plainOf(i),
      guide: i.guide ?? null,
      display: i.display,
      changed: summary.changed,
    },
    description: typeof i.description === 'string' ? i.description : { at: Number(i.description_at) },
    archive: i.archive ? (i.archive as Archive) : { at: Number(i.archive_at) },
    retired: i.retired === true,
  };
}

/** Where a version's texts are held: the versions it reads them from, other than itself. */
export const textHolders = (v: VersionItem): number[] =>
  [
    ...new Set([v.description, v.archive].flatMap((t) => (typeof t === 'object' && t !== null && 'at' in t ? [t.at as number] : []))),
  ].filter((at) => at !== v.summary.version);
