/**
 * How long an answer may be kept, by a browser or the edge (its Cache-Control), declared once: a route names its
 * lifetime beside `edge: 'cached'` (route.ts `cache`), and the shared stack sets it on the route's 200s and 304s that
 * set none themselves (lib/http/stack.ts). No other source spells a lifetime (test/unit/declared-once.test.ts).
 */
export const LIFETIMES = {
  /** What changes only with a deployment or the catalogue's refresh (a code's facts, page and text; the cards; the document): five minutes, served stale up to an hour while revalidated. */
  deployment: 'public, max-age=300, stale-while-revalidate=3600',
  /** What the library's decks move (what it plays): a minute. */
  library: 'public, max-age=60',
  /**
   * A list that names decks (decks like one): 20 s, so that a deck turned private, deleted or erased leaves every
   * copy within the views window (routes/workers.ts VIEWS_WINDOW_SECONDS, 30 s), the search entries' lag included.
   */
  deckList: 'public, max-age=20',
  /** A saved deck's image (its version in its ETag): five minutes. */
  deckImage: 'public, max-age=300',
  /** A code's image: its URL carries the catalogue's version, so a day. */
  codeImage: 'public, max-age=86400',
  /** The bulk files' listing: a new day's files are listed within it; a presigned link outlives it (store/objects.ts). */
  bulkListing: 'public, max-age=300',
  /** A 308 to a canonical URL: a day (a code's canonical form never changes). */
  redirect: 'public, max-age=86400',
  /** The reference page: five minutes, served stale up to a day while revalidated. */
  docsPage: 'public, max-age=300, stale-while-revalidate=86400',
  /** A file named by its content's hash (a docs asset of its build): a year, never revalidated. */
  immutable: 'public, max-age=31536000, immutable',
  /**
   * A bulk file (its key never rewritten, but the file deleted by the bucket's rule: an erased account's decks leave
   * it): an hour, so that the edge keeps no file past the bucket by more (infra/constructs/edge.ts caps it so too).
   */
  bulkFile: 'public, max-age=3600',
} as const;

export type Lifetime = (typeof LIFETIMES)[keyof typeof LIFETIMES];

/** A lifetime's max-age, in seconds (what the edge's cache policy is capped at where it keeps what the origin says). */
export const maxAgeOf = (lifetime: Lifetime): number => Number(/max-age=(\d+)/.exec(lifetime)?.[1] ?? 0);
