/** Path, header and query parameters of the owner routes. */
import { openCursor, signCursor } from '#http/cursor.ts';
import { deckNotFound, invalidParameter, preconditionFailed } from '#http/errors.ts';
import type { ApiRequest, OwnerRequest } from '#http/types.ts';
import type { ListPosition } from '#store/decks.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The caller's user id (auth has matched it to the key) and the deck id; a malformed id is no deck. */
export function deckPath(req: OwnerRequest<unknown>): { userId: string; deckId: string } {
  const deckId = req.params.deck_id ?? '';
  if (!UUID.test(deckId)) throw deckNotFound();
  return { userId: req.key.user_id, deckId };
}

/** `If-Match: "<version>"` (weak or strong; `*` matches any). A value naming no version matches none. */
export function ifMatch(req: ApiRequest<unknown>): number | undefined {
  const raw = req.headers['if-match']?.trim();
  if (raw === undefined || raw === '*') return undefined;
  const m = /^(?:W\/)?"(\d{1,15})"$/.exec(raw);
  if (!m) throw preconditionFailed();
  return Number(m[1]);
}

export const etag = (version: number) => `"${version}"`;

interface OwnerCursor extends ListPosition {
  page: number;
}

/**
 * Owner list cursors: page number and list position, signed like every cursor (http/cursor.ts), so
 * only the exact string the API issued is accepted; they move within the caller's own partition.
 */
export function encodeOwnerCursor(c: OwnerCursor): string {
  return signCursor(['owner', c.page, c.owner_order, c.id]);
}

export function decodeOwnerCursor(raw: string | undefined): OwnerCursor | undefined {
  if (raw === undefined) return undefined;
  const value = openCursor(raw);
  if (Array.isArray(value)) {
    const [kind, page, order, id] = value as unknown[];
    if (
      kind === 'owner' &&
      Number.isInteger(page) &&
      (page as number) > 1 &&
      typeof order === 'string' &&
      /^\d{10}#\d{13}#/.test(order) &&
      typeof id === 'string' &&
      UUID.test(id)
    ) {
      return { page: page as number, owner_order: order, id };
    }
  }
  throw invalidParameter('cursor is not one this API issued');
}
