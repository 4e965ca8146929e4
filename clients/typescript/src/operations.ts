// Generated from the Deck Library OpenAPI document by `npm run client:generate` (openapi-typescript). Do not edit.

/** The operations (method and path template) that take an Idempotency-Key: the creates the client sends one with. */
export const IDEMPOTENT_CREATES: ReadonlySet<string> = new Set(["POST /api/v1/users/{user_id}/decks"]);
