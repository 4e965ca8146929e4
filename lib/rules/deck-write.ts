/**
 * What a create, validate or PATCH body makes of a deck: read every field (shape and limits), derive
 * name, factions and snapshot from the code, then apply every deck, guide, archive and display rule
 * to the result. All failures are reported together; a field that failed its shape is not judged again.
 */
import * as v from 'valibot';
import { keptArchetype, type Rules } from './archetype-of.ts';
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
import { initialPlain, PLAIN_INPUTS, type PlainValues, patchedPlain } from './deck-fields.ts';
import { type Archive, type DeckContent, type Derived, type Described, defaultArchive, type Guide } from './deck-model.ts';
import { checkDeck } from './deck-rules.ts';
import { DeckTextError, readDeckText } from './deck-text.ts';
import { type Detail, detail } from './details.ts';
import { deckName } from './factions.ts';
import { rememberCode } from './parsed-codes.ts';
import { salvageArchive, salvageGuide } from './salvage.ts';
import * as S from './schemas.ts';
import { isJsonObject, notUnder, parseStrict } from './strict-input.ts';

/** The writable fields of a deck and their shapes (create, validate and PATCH bodies). */
export const FIELDS = {
  deck_code: S.DeckCode,
  guide: S.Guide,
  archive: S.Archive,
  ...PLAIN_INPUTS,
  featured_card_id: S.FeaturedCardId,
  card_back_id: S.CardBackId,
  /**
   * The featured card and card back as the owner deck shows them (and the export gives them): the same
   * two fields, nested. A body may give either form; given in both, they must agree (contract §10.4: an
   * exported deck's writable fields are a create body as they are).
   */
  display: v.strictObject({ featured_card_id: v.optional(S.FeaturedCardId), card_back_id: v.optional(S.CardBackId) }),
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
  'author',
  'views',
  'likes',
  'created_at',
  'updated_at',
  'version',
  'user_id',
  'owner_id',
  'archetype',
]);

export type WriteResult = { ok: true; content: DeckContent } | { ok: false; details: Detail[] };

interface Read {
  /** The fields that passed their shape, as their schemas output them. */
  values: Partial<Fields>;
  /** Stand-ins for the rules of fields that failed their shape (salvage.ts): more failures get reported. */
  salvaged: { guide?: Guide | null; archive?: Partial<Archive> };
  details: Detail[];
  /** Paths that failed their shape: no rule is judged on or below them. */
  failed: string[];
  /** Submitted fields (own members of the body, whatever their names). */
  submitted: Set<string>;
}

const isField = (key: string): key is keyof Fields => Object.hasOwn(FIELDS, key);

function readFields(body: Record<string, unknown>): Read {
  const read: Read = { values: {}, salvaged: {}, details: [], failed: [], submitted: new Set(Object.keys(body)) };
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (NOT_WRITABLE.has(key)) {
      read.details.push(detail(key, 'not_writable', `${key} is set by the service and cannot be written`));
      continue;
    }
    if (!isField(key)) {
      read.details.push(detail(key, 'unknown_field', `${key} is not a field of a deck`));
      continue;
    }
    if (key === 'archive' && value === null) {
      read.details.push(detail(key, 'null_section', 'archive must be an object; null cannot clear it'));
      read.failed.push(key);
      continue;
    }
    const parsed = parseStrict(FIELDS[key], value, key);
    if (parsed.ok) {
      (read.values as Record<string, unknown>)[key] = parsed.output;
      continue;
    }
    read.details.push(...parsed.details);
    read.failed.push(...parsed.details.map((d) => d.path));
    if (key === 'guide') read.salvaged.guide = salvageGuide(value);
    if (key === 'archive') read.salvaged.archive = salvageArchive(value);
  }
  // Sections written as null: each must be an object (requirement §2, archive write rule 1).
  const archive = body.archive;
  if (Object.hasOwn(body, 'archive') && isJsonObject(archive)) {
    for (const name of SECTIONS) {
      if (Object.hasOwn(archive, name) && archive[name] === null) {
        read.details.push(
          detail(
            `archive.${name}`,
            'null_section',
            `archive.${name} must be an object; to disable it send { "enabled": false, "items": [] }`,
          ),
        );
        read.failed.push(`archive.${name}`);
      }
    }
  }
  unnestDisplay(read);
  return read;
}

/** The display's two fields, nested (as the owner deck shows them) or flat: one value each, or a detail where the two forms disagree. */
function unnestDisplay(read: Read): void {
  const nested = read.values.display;
  if (!nested) return;
  for (const name of ['featured_card_id', 'card_back_id'] as const) {
    if (!Object.hasOwn(nested, name)) continue;
    if (Object.hasOwn(read.values, name) && read.values[name] !== nested[name]) {
      read.details.push(detail(`display.${name}`, 'invalid_value', `${name} is given twice (flat and in display), with different values`));
      read.failed.push(`display.${name}`);
      continue;
    }
    (read.values as Record<string, unknown>)[name] = nested[name] ?? null;
  }
}

/** Name, factions and canonical code of a parsed deck; the code is remembered parsed (parsed-codes.ts). */
export function derive(deck: Deck): Derived {
  const deck_code = encodeDeckCode(deck);
  rememberCode(deck_code, deck);
  return { deck_code, name: deckName(deck.main, deck.ally), main_faction: deck.main, ally_faction: deck.ally };
}

/** What derive() gives, and the snapshot: an answer about a code that is not stored (replace, `deckctl deck check`). */
export const derivedWithCards = (deck: Deck): Described => ({ ...derive(deck), cards_snapshot: cardsSnapshot(deck.cards) });

/** Parses a deck code field into a deck, or the `invalid_deck_code` detail on `path`. */
export function readDeckCode(code: string, path = 'deck_code'): Deck | Detail {
  try {
    return parseDeckCode(code);
  } catch (e) {
    if (e instanceof DeckCodeError) return detail(path, 'invalid_deck_code', e.message);
    throw e;
  }
}

interface Draft extends PlainValues {
  deck_code: string | undefined;
  guide: Guide | null;
  archive: Archive;
  featured_card_id: string | null;
  card_back_id: string | null;
}

/**
 * Applies every rule to a draft; `keptGuide` marks a guide that was not resubmitted with a new code. The deck's
 * archetype is the rules' (none given: none), named in English as a deck keeps it; else the cluster the deck `before`
 * was given, while its code is the same.
 */
function judge(
  draft: Draft,
  read: Read,
  catalogue: Catalogue,
  keptGuide: boolean,
  archetypes: Rules | undefined,
  before?: Pick<DeckContent, 'deck_code' | 'archetype'>,
): WriteResult {
  const rules: Detail[] = [];
  let deck: Deck | undefined;
  if (draft.deck_code !== undefined && !read.failed.includes('deck_code')) {
    const parsed = readDeckCode(draft.deck_code);
    if ('path' in parsed) rules.push(parsed);
    else {
      deck = parsed;
      rules.push(...checkDeck(deck, catalogue));
    }
  }
  const ctx: DeckContext = deckContext(catalogue, deck);

  const guideDetails = draft.guide ? checkGuide(draft.guide, ctx) : [];
  if (keptGuide && (draft.guide === null || guideDetails.length > 0)) {
    rules.push(
      detail(
        'guide',
        'guide_required',
        'the new deck_code leaves the current guide unusable (its core cards are not all in the new deck); submit a guide with it',
      ),
    );
  } else rules.push(...guideDetails);
  const { key_components: kc, alternatives: alt, chart_settings: chart } = draft.archive;
  if (kc) rules.push(...checkKeyComponents(kc, ctx));
  if (alt) rules.push(...checkAlternatives(alt, ctx));
  if (chart) rules.push(...checkChartSettings(chart, ctx));
  const display = { featured_card_id: draft.featured_card_id, card_back_id: draft.card_back_id };
  rules.push(...checkDisplay(display, ctx));

  // A rule is not judged where the shape already failed (a too-long id is not also an unknown card).
  const details = [...read.details, ...notUnder(rules, read.failed)];
  if (details.length > 0 || !deck) return { ok: false, details };
  const { deck_code: _code, featured_card_id: _f, card_back_id: _c, ...rest } = draft;
  const derived = derive(deck);
  const kept = before?.deck_code === derived.deck_code ? before.archetype : null;
  return { ok: true, content: { ...derived, archetype: keptArchetype(archetypes, deck, kept), ...rest, display } };
}

/** The sections a written archive sets (each written section replaces that section; null ones are reported). */
const sectionsOf = (archive: Partial<Archive> | undefined): Partial<Archive> => {
  const out: Partial<Archive> = {};
  for (const name of SECTIONS) if (archive?.[name]) Object.assign(out, { [name]: archive[name] });
  return out;
};

/**
 * A body's `deck_text` (the game's text export, contract §11.3), in place of `deck_code`: the body with the
 * code it makes, or with neither and the detail saying why not.
 */
function codeOfText(
  body: Record<string, unknown>,
  catalogue: Catalogue,
): { body: Record<string, unknown>; details: Detail[]; given: boolean } {
  if (!Object.hasOwn(body, 'deck_text')) return { body, details: [], given: false };
  const { deck_text: text, ...rest } = body;
  const fail = (code: 'invalid_value' | 'invalid_type' | 'invalid_deck_code', message: string) => ({
    body: rest,
    details: [detail('deck_text', code, message)],
    given: true,
  });
  if (Object.hasOwn(rest, 'deck_code')) return fail('invalid_value', 'give deck_code or deck_text, not both');
  if (typeof text !== 'string') return fail('invalid_type', "deck_text must be a string: the game's text export of a deck");
  try {
    return { body: { ...rest, deck_code: encodeDeckCode(readDeckText(text, catalogue)) }, details: [], given: true };
  } catch (e) {
    if (e instanceof DeckTextError) return fail('invalid_deck_code', e.message);
    throw e;
  }
}

/** A create or validate body (requirement §4 Create); `deck_text` may stand for `deck_code`. */
export function checkCreate(submitted: Record<string, unknown>, catalogue: Catalogue, archetypes: Rules | undefined): WriteResult {
  const text = codeOfText(submitted, catalogue);
  const read = readFields(text.body);
  read.details.unshift(...text.details);
  if (!read.submitted.has('deck_code') && !text.given)
    read.details.unshift(detail('deck_code', 'required', 'deck_code (or deck_text) is required'));
  if (!read.submitted.has('guide')) read.details.push(detail('guide', 'required', 'guide is required (guide.system at least)'));
  const { values, salvaged } = read;
  const archive = { ...defaultArchive(), ...sectionsOf(values.archive ?? salvaged.archive) };
  const draft: Draft = {
    deck_code: values.deck_code,
    guide: values.guide ?? salvaged.guide ?? null,
    archive,
    ...initialPlain(values),
    featured_card_id: values.featured_card_id ?? null,
    card_back_id: values.card_back_id ?? null,
  };
  return judge(draft, read, catalogue, false, archetypes);
}

/** A PATCH body applied to the current content: guide whole, archive per section (contract §4). */
export function checkPatch(
  body: Record<string, unknown>,
  current: DeckContent,
  catalogue: Catalogue,
  archetypes: Rules | undefined,
): WriteResult {
  if (Object.keys(body).length === 0) {
    return { ok: false, details: [detail('', 'empty_patch', 'a PATCH needs at least one field')] };
  }
  const read = readFields(body);
  const { values, salvaged } = read;
  const archive: Archive = { ...current.archive, ...sectionsOf(values.archive ?? salvaged.archive) };
  const draft: Draft = {
    deck_code: values.deck_code ?? current.deck_code,
    guide: values.guide ?? (read.submitted.has('guide') ? (salvaged.guide ?? null) : current.guide),
    archive,
    ...patchedPlain(values, current),
    featured_card_id: Object.hasOwn(values, 'featured_card_id') ? (values.featured_card_id ?? null) : current.display.featured_card_id,
    card_back_id: Object.hasOwn(values, 'card_back_id') ? (values.card_back_id ?? null) : current.display.card_back_id,
  };
  const keptGuide = Object.hasOwn(values, 'deck_code') && !read.submitted.has('guide');
  return judge(draft, read, catalogue, keptGuide, archetypes, current);
}
