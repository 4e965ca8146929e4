/**
 * Request schemas (valibot): structure, types and limits of contract §3 and requirement §8.
 * Cross-field and card rules live in the *-rules modules; these only shape the input.
 */
import * as v from 'valibot';
import { CARD_ID } from './card.ts';
import { holdsInvisible, INVISIBLE } from './invisible.ts';
import { coded } from './issues.ts';
import { LIMITS } from './limits.ts';

export { LIMITS };

/** Visible text only (no control, format, separator, private-use or unassigned character: contract §9.1). */
export const visibleOnly = (what: string) =>
  v.check<string, string>((s) => !INVISIBLE.test(s), coded('invalid_value', holdsInvisible(what)));

/** Length in characters (code points), as a client counts them. */
const chars = (s: string) => [...s].length;
export const maxChars = (n: number) => v.check<string, string>((s) => chars(s) <= n, coded('too_long', `at most ${n} characters`));

export const VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const CardId = v.pipe(v.string(), v.regex(CARD_ID, coded('invalid_value', 'a card_id is 1-64 characters of [0-9A-Za-z_.:-]')));
/** An id that can stand in a deck code (replacements build a new code). */
export const CodeCardId = v.pipe(
  v.string(),
  v.regex(/^[0-9A-Za-z]{2}$/, coded('invalid_value', 'a deck card_id is 2 characters of [0-9A-Za-z]')),
);
const cardList = (max: number) => v.pipe(v.array(CardId), v.maxLength(max));

export const DeckCode = v.pipe(v.string(), maxChars(LIMITS.deckCodeChars));

export const Guide = v.strictObject({
  system: v.pipe(v.string(), v.trim(), v.minLength(1), maxChars(LIMITS.systemChars), visibleOnly('guide.system')),
  description: v.nullish(v.pipe(v.string(), maxChars(LIMITS.descriptionChars)), ''),
  core_cards: v.optional(cardList(LIMITS.coreCards), []),
  reserve_recommendations: v.optional(cardList(LIMITS.reserveRecommendations), []),
});

const Reason = v.nullish(v.pipe(v.string(), maxChars(LIMITS.reasonChars)), '');
const KeyComponent = v.strictObject({ card_id: CardId, reason: Reason });
const Alternative = v.strictObject({ card_id: CardId, reason: Reason, replaces_card_id: v.optional(CardId) });
const section = <T extends v.GenericSchema>(item: T, max: number) =>
  v.strictObject({ enabled: v.boolean(), items: v.optional(v.pipe(v.array(item), v.maxLength(max)), []) });

export const KeyComponents = section(KeyComponent, LIMITS.keyComponents);
export const Alternatives = section(Alternative, LIMITS.alternatives);
const OtkItem = v.strictObject({
  card_ids: v.pipe(v.array(CardId), v.minLength(1), v.maxLength(LIMITS.otkCards)),
  required: v.pipe(v.number(), v.integer(), v.minValue(1)),
  label: v.optional(v.pipe(v.string(), maxChars(LIMITS.labelChars))),
});
export const ChartSettings = v.strictObject({
  otkConfig: v.strictObject({ items: v.optional(v.pipe(v.array(OtkItem), v.maxLength(LIMITS.otkItems)), []) }),
});
/** null is accepted here so that the archive rules can answer `null_section` on its path. */
export const Archive = v.strictObject({
  key_components: v.optional(v.nullable(KeyComponents)),
  alternatives: v.optional(v.nullable(Alternatives)),
  chart_settings: v.optional(v.nullable(ChartSettings)),
});

/** A tag as stored: trimmed, lower-cased, Unicode NFC; the search filter normalises its tag the same way. */
export const normalizeTag = (tag: string): string => tag.trim().toLowerCase().normalize('NFC');

/** Tags are normalised first, then checked (contract §8.1): any tag read back can be written back unchanged. */
export const Tags = v.pipe(
  v.array(v.pipe(v.string(), v.transform(normalizeTag), v.minLength(1), maxChars(LIMITS.tagChars), visibleOnly('a tag'))),
  v.transform((tags) => [...new Set(tags)]),
  v.maxLength(LIMITS.tags),
);

export const Visibility = v.picklist(VISIBILITIES);
export const SortOrder = v.pipe(v.number(), v.integer(), v.minValue(-2_147_483_648), v.maxValue(2_147_483_647));
export const FeaturedCardId = v.nullable(CardId);
export const CardBackId = v.nullable(
  v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,64}$/, coded('invalid_value', 'a card_back_id is 1-64 characters of [A-Za-z0-9_.:-]'))),
);

export const Replacement = v.strictObject({
  remove_card_id: CodeCardId,
  add_card_id: CodeCardId,
  count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.replaceCount)),
});
export const ReplaceBody = v.strictObject({
  deck_code: DeckCode,
  replacements: v.pipe(v.array(Replacement), v.minLength(1), v.maxLength(LIMITS.replacements)),
});

export type GuideOut = v.InferOutput<typeof Guide>;
export type KeyComponentsOut = v.InferOutput<typeof KeyComponents>;
export type AlternativesOut = v.InferOutput<typeof Alternatives>;
export type ChartSettingsOut = v.InferOutput<typeof ChartSettings>;
