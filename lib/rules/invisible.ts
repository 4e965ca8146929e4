/**
 * Characters no visible text holds (contract §9.1): Unicode general categories Cc (control), Cf (format:
 * zero-width and bidirectional marks among them), Zl and Zp (line and paragraph separators), Co (private
 * use) and Cn (unassigned). Tags, guide.system, display names and a catalogue's names must be text a reader sees as
 * it is. A module of its own: the catalogue's functions read it without the request schemas.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

/** What a text holding one of them is told (a tag, a display name, a card's name: `what`). */
export const holdsInvisible = (what: string): string => `${what} holds no control, format, separator, private-use or unassigned characters`;
