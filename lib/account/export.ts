/**
 * GET /api/v1/users/:user_id/export (contract §9.4, decks:read): everything the account owns, by
 * pages — the account, its decks whole (25 a page, in id order: a Query of its partition, fewer when
 * the page would pass the answer budget: lib/http/answer-size.ts), and on the first page the share
 * slugs it likes and its collection (contract §12.3) — the collection only for a key with collection:read, as its own
 * route asks (null otherwise, and meta.left_out says so). A deck's code and writable fields are what create takes.
 */
import { catalogue } from '#catalogue/load.ts';
import { ANSWER_BUDGET_BYTES, sentSize, withinBudget } from '#http/answer-size.ts';
import { cursorKeyAtInit, openCursor, signCursor } from '#http/cursor.ts';
import { invalidParameter, keyNotFound } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { ACCOUNT_ROUTES as R } from '#routes/account.ts';
import { ownerDeck } from '#shapes/deck-bodies.ts';
import { getAccount } from '#store/accounts.ts';
import { documentClient } from '#store/client.ts';
import { getCollection } from '#store/collections.ts';
import { decksWhole } from '#store/decks.ts';
import { likedSlugs } from '#store/likes.ts';

/** Decks a page of the export holds. */
export const EXPORT_PAGE = 25;

/** The deck a cursor continues after; a cursor of another account's export, or of another list, is refused. */
async function after(userId: string, raw: string | undefined): Promise<string | undefined> {
  if (raw === undefined) return undefined;
  const value = await openCursor(raw);
  if (Array.isArray(value) && value[0] === 'export' && value[1] === userId && typeof value[2] === 'string') return value[2];
  throw invalidParameter('cursor is not one this API issued for this export');
}

export const exportOwnAccount = endpoint(R.exportAccount, { init: [catalogue, documentClient, cursorKeyAtInit] }, async (req) => {
  const userId = req.key.user_id;
  const start = await after(userId, req.query.cursor);
  const first = start === undefined;
  // The collection is read only for a key that may read it on its own route (collection:read): scopes hold on every route.
  const mayReadCollection = req.key.scopes.includes('collection:read');
  const [account, page, likes, collection] = await Promise.all([
    getAccount(userId),
    decksWhole(userId, EXPORT_PAGE, start),
    first ? likedSlugs(userId) : Promise.resolve([]),
    first && mayReadCollection ? getCollection(userId) : Promise.resolve(undefined),
  ]);
  const cards = mayReadCollection ? (collection?.cards ?? {}) : null;
  // The key authenticated a moment ago; its account gone since is an account being erased.
  if (!account) throw keyNotFound();
  // A page of decks at their text limits stops short of Lambda's answer limit (and says there is more).
  const decks = withinBudget(
    page.items.map((d) => ownerDeck(d, catalogue())),
    ANSWER_BUDGET_BYTES - sentSize(account) - sentSize(likes) - sentSize(cards),
  );
  const last = decks.at(-1);
  const more = page.more || decks.length < page.items.length;
  const next = more && last ? await signCursor(['export', userId, last.id]) : null;
  return {
    data: { account, decks, likes, collection: cards },
    meta: {
      has_more: next !== null,
      next_cursor: next,
      left_out: mayReadCollection ? [] : [{ field: 'collection' as const, needs_scope: 'collection:read' as const }],
    },
  };
});
