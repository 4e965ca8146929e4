/** Primary keys of the item kinds in the decks table (docs/data-model.md). */
export const deckKey = (userId: string, deckId: string) => ({ pk: `USER#${userId}`, sk: `DECK#${deckId}` });
export const entryKey = (deckId: string, facet: string) => ({ pk: `SEARCH#${deckId}`, sk: facet });
export const counterKey = (slug: string) => ({ pk: `COUNT#${slug}`, sk: 'COUNT' });
/** A like, kept twice in one transaction: under the deck (its likes, to purge them with it) and under the account (what it likes). */
export const likeKey = (slug: string, userId: string) => ({ pk: `LIKE#${slug}`, sk: userId });
export const likedKey = (userId: string, slug: string) => ({ pk: `LIKED#${userId}`, sk: slug });
export const idempotencyKey = (userId: string, keyHash: string) => ({ pk: `IDEMP#${userId}#${keyHash}`, sk: 'IDEMP' });
