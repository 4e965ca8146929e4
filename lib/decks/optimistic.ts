/**
 * Optimistic concurrency on the caller's deck: read it, then try a write conditional on the version
 * read. A lost race reads again and retries, so no update is lost; with If-Match the fresh read no
 * longer matches and the answer is 412.
 */
import { deckNotFound, preconditionFailed, unavailable } from '#http/errors.ts';
import type { Headed } from '#http/types.ts';
import { getDeck } from '#store/decks.ts';
import type { ApiKey } from '#store/items/api-key.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { deckPath, ifMatch } from './params.ts';

export const WRITE_ATTEMPTS = 20;
/** The wait before a write tries again after losing a race: random, growing with the attempt, at most 250 ms. */
export const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(250, 10 * 2 ** attempt)));

/** Runs `write` on the latest deck until it lands (`write` answers undefined when it lost the race). */
export async function onLatestDeck<T>(
  req: Headed & { params: { deck_id: string }; key: ApiKey },
  write: (current: StoredDeck) => Promise<T | undefined>,
): Promise<T> {
  const { userId, deckId } = deckPath(req);
  const matches = ifMatch(req);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getDeck(userId, deckId);
    if (!current) throw deckNotFound();
    if (matches && !matches(current.version)) throw preconditionFailed();
    const done = await write(current);
    if (done !== undefined) return done;
    await pause(attempt);
  }
  throw unavailable('the deck is being changed by many requests at once; retry');
}
