/**
 * The forms of the service's identifiers, once: the path parameters (lib/routes/params.ts), the response
 * shapes, cursors and keys all read them from here.
 */
/** Deck ids and user ids: lower-case UUIDs. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A share slug: 12 random characters of [A-Za-z0-9] (contract §3). */
export const SHARE_SLUG = /^[A-Za-z0-9]{12}$/;
/** An archetype's id (contract §13.3): lower-case words of letters and digits joined by `-`, at most ARCHETYPE_ID_CHARS. */
export const ARCHETYPE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ARCHETYPE_ID_CHARS = 64;
/** An archetype's id whole, its length too (a path parameter's pattern). */
export const ARCHETYPE_ID_FORM = /* @__PURE__ */ new RegExp(`^(?=.{1,${ARCHETYPE_ID_CHARS}}$)${ARCHETYPE_ID.source.slice(1)}`);
/** A period of the card pool (the archetype rules' files): the month it began, YYYY-MM. */
export const PERIOD = /^\d{4}-(?:0[1-9]|1[0-2])$/;
/** An archetype's name: at most this many UTF-16 units (it is shown on pages, images and in Discord). */
export const ARCHETYPE_NAME_CHARS = 60;
/** A key id: the part of a key between `dlk_` and its secret (contract §5), unanchored. */
export const KEY_ID = '[A-Za-z0-9]{16}';
/** A key id, whole. */
export const KEY_ID_FORM = /^[A-Za-z0-9]{16}$/;
/** A webhook delivery's id (lib/rules/webhooks.ts deliveryIdOf): `msg_`, its time in base 36, 16 hex digits. */
export const DELIVERY_ID = /^msg_[0-9a-z]{9}[0-9a-f]{16}$/;
/** A deck's version in a path: 1 and up, no leading zero. */
export const VERSION_NUMBER = /^[1-9][0-9]{0,9}$/;
/**
 * A deck code's URL form (contract §10.2; lib/rules/url-code.ts): two faction characters, then four groups
 * of 2-character ids, joined by `-`.
 */
export const URL_CODE = /^[0-9A-Za-z]{2}-(?:[0-9A-Za-z]{2})*-(?:[0-9A-Za-z]{2})*-(?:[0-9A-Za-z]{2})*-(?:[0-9A-Za-z]{2})*$/;

/** Whether a string is a well-formed share slug. */
export const isShareSlug = (raw: string): boolean => SHARE_SLUG.test(raw);
