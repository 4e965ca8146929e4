/**
 * The envelope's constants (contract §2, §8.1), declared once: the shapes (responses.ts, errors.ts)
 * and the HTTP layer that builds answers (lib/http) both read them. No schema here, so a function's
 * bundle takes them without the shapes.
 */
export const API_VERSION = 'v1';
/** `error.details` holds at most this many entries; `error.details_total` then gives the full count (§8.1). */
export const MAX_DETAILS = 100;
