/**
 * What a create, validate or PATCH body makes of a deck: read every field (shape and limits), derive
 * name, factions and snapshot from the code, then apply every deck, guide, archive and display rule
 * to the result. All failures are reported together; a field that failed its shape is not judged again.
 */
import * as v from 'valibot';
import type { Catalogue } from './catalogue.ts';
import {
  checkAlternatives,
  checkChartSettings,
  checkDisplay,
  checkGuide,
  checkKeyComponents,
  type DeckContext,
  deckContext,
} from './content-rules.ts';
import { cardsSnapshot, type Deck, DeckCodeError, encodeDeckCode, parseDeckCode } from './deck-code.ts';
import { type Archive, type DeckContent, type Derived, defaultArchive, type Guide } from './deck-model.ts';
import { checkDeck } from './deck-rules.ts';
import { type Detail, detail } from './details.ts';
import { deckName } from './factions.ts';
import { issuesToDetails } from './issues.ts';
import * as S from './schemas.ts';

/** The writable fields of a deck and their shapes (create, validate and PATCH bodies). */
export const FIELDS = {
  deck_code: S.DeckCode,
  guide: S.Guide,
  archive: S.Archive,
  tags: S.Tags,
  visibility: S.Visibility,
  sort_order: S.SortOrder,
  featured_card_id: S.FeaturedCardId,
  card_back_id: S.CardBackId,
} as const;
type Fields = { [K in keyof typeof FIELDS]: v.InferOutput<(typeof FIELDS)[K]> };
const SECTIONS = ['key_components', 'alternatives', 'chart_settings'] as const;

/** Fields the service derives or owns: a client may never submit them. */
export const NOT_WRITABLE = new Set([
  'id',
  'name',
  'main_faction',
  'ally_faction',
  'cards_snapshot',
  'share_slug',
  'display',
  'author',
  'views',
  'likes',
  'created_at',
  'updated_at',
  'version',
  'user_id',
  'owner_id',
]);

export type WriteResult = { ok: true; content: DeckContent } | { ok: false; details: Detail[] };

interface Read {
  values: Partial<Fields>;
  details: Detail[];
  /** Fields (and archive sections, as `archive.<name>`) that were submitted but failed their shape. */
  broken: Set<string>;
}

function readFields(body: Record<string, unknown>): Read {
  const read: Read = { values: {}, details: [], broken: new Set() };
  for (const [key, value] of Object.entries(body)) {
    if (NOT_WRITABLE.has(key)) {
      read.details.push(detail(key, 'not_writable', `${key} is set by the service and cannot be written`));
      continue;
    }
    const schema = FIELDS[key as keyof Fields];
    if (!schema) {
      read.details.push(detail(key, 'unknown_field', `${key} is not a field of a deck`));
      continue;
    }
    if (key === 'archive' && value === null) {
      read.details.push(detail(key, 'null_section', 'archive must be an object; null cannot clear it'));
      read.broken.add(key);
      continue;
    }
    const result = v.safeParse(schema, value, { abortEarly: false });
    if (result.success) {
      (read.values as Record<string, unknown>)[key] = result.output;
      continue;
    }
    const details = issuesToDetails(result.issues, key);
    read.details.push(...details);
    if (key !== 'archive') read.broken.add(key);
    else for (const d of details) read.broken.add(d.path.split(/[.[]/, 2).slice(0, 2).join('.'));
  }
  // Sections written as null: each must be an object (requirement §2, archive write rule 1).
  for (const name of SECTIONS) {
    if (read.values.archive?.[name] === null) {
      read.details.push(
        detail(
          `archive.${name}`,
          'null_section',
          `archive.${name} must be an object; to disable it send { "enabled": false, "items": [] }`,
        ),
      );
      read.broken.add(`archive.${name}`);
    }
  }
  return read;
}

/** Name, factions, canonical code and snapshot of a parsed deck. */
export function derive(deck: Deck): Derived {
  return {
    deck_code: encodeDeckCode(deck),
    name: deckName(deck.main, deck.ally),
    main_faction: deck.main,
    ally_faction: deck.ally,
    cards_snapshot: cardsSnapshot(deck.cards),
  };
}

/** Parses a deck code field into a deck, or the `invalid_deck_code` detail on `path`. */
export function readDeckCode(code: string, path = 'deck_code'): Deck | Detail {
  try {
    return parseDeckCode(code);
  } catch (e) {
    if (e instanceof DeckCodeError) return detail(path, 'invalid_deck_code', e.message);
    throw e;
  }
}

interface Draft {
  deck_code: string | undefined;
  guide: Guide | null;
  archive: Archive;
  tags: string[];
  visibility: S.Visibility;
  sort_order: number;
  featured_card_id: string | null;
  card_back_id: string | null;
}

/** Applies every rule to a draft; `keptGuide` marks a guide that was not resubmitted with a new code. */
function judge(draft: Draft, read: Read, catalogue: Catalogue, keptGuide: boolean): WriteResult {
  const details = [...read.details];
  let deck: Deck | undefined;
  if (draft.deck_code !== undefined && !read.broken.has('deck_code')) {
    const parsed = readDeckCode(draft.deck_code);
    if ('path' in parsed) details.push(parsed);
    else {
      deck = parsed;
      details.push(...checkDeck(deck, catalogue));
    }
  }
  const ctx: DeckContext = deckContext(catalogue, deck);

  if (!read.broken.has('guide')) {
    const guideDetails = draft.guide ? checkGuide(draft.guide, ctx) : [];
    if (keptGuide && (draft.guide === null || guideDetails.length > 0)) {
      details.push(
        detail(
          'guide',
          'guide_required',
          'the new deck_code leaves the current guide unusable (its core cards are not all in the new deck); submit a guide with it',
        ),
      );
    } else details.push(...guideDetails);
  }
  const { key_components: kc, alternatives: alt, chart_settings: chart } = draft.archive;
  if (kc && !read.broken.has('archive.key_components') && !read.broken.has('archive')) details.push(...checkKeyComponents(kc, ctx));
  if (alt && !read.broken.has('archive.alternatives') && !read.broken.has('archive')) details.push(...checkAlternatives(alt, ctx));
  if (chart && !read.broken.has('archive.chart_settings') && !read.broken.has('archive')) details.push(...checkChartSettings(chart, ctx));
  const display = { featured_card_id: draft.featured_card_id, card_back_id: draft.card_back_id };
  if (!read.broken.has('featured_card_id')) details.push(...checkDisplay(display, ctx));

  if (details.length > 0 || !deck) return { ok: false, details };
  const { deck_code: _code, featured_card_id: _f, card_back_id: _c, ...rest } = draft;
  return { ok: true, content: { ...derive(deck), ...rest, display } };
}

/** A create or validate body (requirement §4 Create). */
export function checkCreate(body: Record<string, unknown>, catalogue: Catalogue): WriteResult {
  const read = readFields(body);
  if (!('deck_code' in body)) read.details.unshift(detail('deck_code', 'required', 'deck_code is required'));
  if (!('guide' in body)) read.details.push(detail('guide', 'required', 'guide is required (guide.system at least)'));
  const { values } = read;
  const archive = defaultArchive();
  for (const name of SECTIONS) if (values.archive?.[name]) Object.assign(archive, { [name]: values.archive[name] });
  const draft: Draft = {
    deck_code: values.deck_code,
    guide: values.guide ?? null,
    archive,
    tags: values.tags ?? [],
    visibility: values.visibility ?? 'private',
    sort_order: values.sort_order ?? 0,
    featured_card_id: values.featured_card_id ?? null,
    card_back_id: values.card_back_id ?? null,
  };
  return judge(draft, read, catalogue, false);
}

/** A PATCH body applied to the current content: guide whole, archive per section (contract §4). */
export function checkPatch(body: Record<string, unknown>, current: DeckContent, catalogue: Catalogue): WriteResult {
  if (Object.keys(body).length === 0) {
    return { ok: false, details: [detail('', 'empty_patch', 'a PATCH needs at least one field')] };
  }
  const read = readFields(body);
  const { values } = read;
  const archive: Archive = { ...current.archive };
  for (const name of SECTIONS) if (values.archive?.[name]) Object.assign(archive, { [name]: values.archive[name] });
  const draft: Draft = {
    deck_code: values.deck_code ?? current.deck_code,
    guide: values.guide ?? current.guide,
    archive,
    tags: values.tags ?? current.tags,
    visibility: values.visibility ?? current.visibility,
    sort_order: values.sort_order ?? current.sort_order,
    featured_card_id: 'featured_card_id' in values ? (values.featured_card_id ?? null) : current.display.featured_card_id,
    card_back_id: 'card_back_id' in values ? (values.card_back_id ?? null) : current.display.card_back_id,
  };
  const keptGuide = 'deck_code' in values && !('guide' in body);
  return judge(draft, read, catalogue, keptGuide);
}
