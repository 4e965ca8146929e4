/**
 * Characters no visible text holds (contract §9.1): Unicode general categories Cc (control), Cf (format:
 * zero-width and bidirectional marks among them), Zl and Zp (line and paragraph separators), Co (private
 * use) and Cn (unassigned). Tags, guide.system, display names and a catalogue's names must be text a reader sees as
 * it is. A module of its own: the catalogue's functions read it without the request schemas.
 */
/** Their categories, as a character class's body (for a pattern that adds to them). */
export const INVISIBLE_CLASS = String.raw`\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}`;
export const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');

/** What a text holding one of them is told (a tag, a display name, a card's name: `what`). */
export const holdsInvisible = (what: string): string => `${what} holds no control, format, separator, private-use or unassigned characters`;

/** Every invisible character and every lone surrogate half (a text cut mid-pair, or sent so). */
const UNSHOWN = new RegExp(`[${INVISIBLE_CLASS}\\p{Cs}]`, 'gu');

/**
 * A text a reader sent, as an answer may echo it: each control, format, separator, private-use or unassigned
 * character and each lone surrogate half shown as U+FFFD (a reader sees that something was there, and nothing
 * it does: no bidirectional override turns the answer around, no lone half is sent on).
 */
export const visible = (text: string): string => text.replace(UNSHOWN, '\ufffd');

/** A text cut to at most `max` UTF-16 units at a code point's boundary, an ellipsis marking the cut. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
