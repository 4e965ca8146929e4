/** The owner list's cursors (only the list reads them, so only its function bundles the cursor key). */
import { openCursor, signCursor } from '#http/cursor.ts';
import { invalidParameter } from '#http/errors.ts';
import { UUID } from '#rules/ids.ts';
import type { ListPosition } from '#store/decks.ts';

interface OwnerCursor extends ListPosition {
  page: number;
}

/**
 * Owner list cursors: page number and list position, signed like every cursor (http/cursor.ts), so
 * only the exact string the API issued is accepted; they move within the caller's own partition.
 */
export function encodeOwnerCursor(c: OwnerCursor): Promise<string> {
  return signCursor(['owner', c.page, c.owner_order, c.id]);
}

export async function decodeOwnerCursor(raw: string | undefined): Promise<OwnerCursor | undefined> {
  if (raw === undefined) return undefined;
  const value = await openCursor(raw);
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
