/** A mistake in how deckctl was called: exit status 2 with the usage text. */
export class UsageError extends Error {}
