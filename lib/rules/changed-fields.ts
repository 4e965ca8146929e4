/**
 * Which writable fields differ between two versions of a deck (contract §9.2's `changed`), in the
 * contract's order. Pure: values compared as the JSON they are answered as.
 */
import { isDeepStrictEqual } from 'node:util';
import { PLAIN_NAMES, type PlainName, PUBLIC_CHANGE_PLAIN } from './deck-fields.ts';
import type { DeckContent } from './deck-model.ts';

/** The writable fields in the contract's order: the code, the guide and archive, the plain fields, the display's two ids. */
export const VERSIONED_FIELDS = ['deck_code', 'guide', 'archive', ...PLAIN_NAMES, 'featured_card_id', 'card_back_id'] as const;
export type VersionedField = 'deck_code' | 'guide' | 'archive' | PlainName | 'featured_card_id' | 'card_back_id';
/** What a public deck's history names of a change (contract §9.2): its content, not how its owner files or shows it. */
export const PUBLIC_CHANGES = ['deck_code', 'guide', 'archive', ...PUBLIC_CHANGE_PLAIN] as const;
export type PublicChange = (typeof PUBLIC_CHANGES)[number];

/** Content as versions keep it: the writable fields (display's two ids at the top, as `changed` names them). */
export type Versioned = Pick<DeckContent, 'deck_code' | 'guide' | 'archive' | PlainName | 'display'>;

const fieldOf = (d: Versioned, field: VersionedField): unknown =>
  field === 'featured_card_id' || field === 'card_back_id' ? d.display[field] : d[field];

export const changedFields = (before: Versioned, after: Versioned): VersionedField[] =>
  VERSIONED_FIELDS.filter((field) => !isDeepStrictEqual(fieldOf(before, field), fieldOf(after, field)));
