/** Primary keys of every item kind in the decks table (docs/data-model.md). */
export const deckKey = (userId: string, deckId: string) => ({ pk: `USER#${userId}`, sk: `DECK#${deckId}` });
export const entryKey = (deckId: string, facet: string) => ({ pk: `SEARCH#${deckId}`, sk: facet });
export const counterKey = (slug: string) => ({ pk: `COUNT#${slug}`, sk: 'COUNT' });
export const likeKey = (slug: string, userId: string) => ({ pk: `LIKE#${slug}#${userId}`, sk: 'LIKE' });
export const idempotencyKey = (userId: string, keyHash: string) => ({ pk: `IDEMP#${userId}#${keyHash}`, sk: 'IDEMP' });
