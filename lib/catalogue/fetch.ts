/**
 * The official catalogue from the KARDS GraphQL endpoint the kards.com deck builder reads (contract §10.1, §11.3,
 * §12.5): every page, 20 cards each, each retried as HTTP says, checked page by page; then a pass of its own for each
 * language no title of the first pass has. A listing is taken only once shown consistent: the English one when two
 * passes list the same cards in the same order, a language's when it lists the English one's — a card removed
 * upstream between two pages moves every later page one card on, and the card that slid across the boundary was in
 * no page of that pass. A pass counts only when every page gives the endpoint's same `count` and the pass read that
 * many cards: a listing that shifts between two pages of every pass (two passes alike, one card short in both) is
 * never taken.
 * Used by `deckctl catalogue fetch` (a file) and by the scheduled refresh (lib/workers/catalogue-refresh.ts: a
 * published version).
 */
import { CatalogueFormatError } from '#rules/catalogue.ts';
import {
  CARDS_QUERY,
  type CardsPage,
  cardsVariables,
  checkPage,
  KARDS_LANGUAGES,
  listingOf,
  PAGE_SIZE,
  pageOf,
  untitled,
  withTitlesOf,
} from '#rules/kards-graphql.ts';

/** The endpoint the kards.com deck builder reads (AABur/kardscm kardscm/constants.py GRAPHQL_URL). */
export const KARDS_ENDPOINT = 'https://api.kards.com/graphql';
/** Attempts a page gets when the endpoint answers 429, 5xx or not at all. */
const ATTEMPTS = 5;
const RETRY_AFTER_MAX_MS = 30_000;
/** Passes of one language read before its listing is given up on as one that keeps changing. */
const MAX_PASSES = 4;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One page, retried as HTTP says (429 and 5xx, Retry-After when given, else backing off), or an error after the last attempt. */
async function fetchPage(endpoint: string, offset: number, backoffMs: number, language: string): Promise<CardsPage> {
  let last = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let wait = backoffMs * 2 ** (attempt - 1);
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ operationName: 'getCards', query: CARDS_QUERY, variables: cardsVariables(offset, language) }),
        signal: AbortSignal.timeout(30_000),
      });
      if (res.ok) return pageOf(await res.json());
      last = `HTTP ${res.status}`;
      if (res.status !== 429 && res.status < 500) break;
      const after = Number(res.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) wait = Math.min(after * 1000, RETRY_AFTER_MAX_MS);
    } catch (e) {
      if (e instanceof CatalogueFormatError) throw e;
      last = (e as Error).message;
    }
    if (attempt < ATTEMPTS) await pause(wait);
  }
  throw new CatalogueFormatError(
    `the page at offset ${offset}${language === 'en' ? '' : ` (${language})`} failed (${last}) after ${ATTEMPTS} attempts`,
  );
}

/**
 * Every page of one pass (the endpoint asked in one language), checked page by page; and the counts its pages gave
 * (the endpoint's own `count`: one, equal to the cards read, in a pass whose listing held still).
 */
async function fetchPass(
  endpoint: string,
  backoffMs: number,
  language: string,
  progress: (line: string) => void,
): Promise<{ nodes: unknown[]; counts: number[] }> {
  const nodes: unknown[] = [];
  const counts = new Set<number>();
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await fetchPage(endpoint, offset, backoffMs, language);
    checkPage(page, offset);
    nodes.push(...page.nodes);
    counts.add(page.count);
    progress(`fetched ${nodes.length} of ${page.count} cards (${language})`);
    if (!page.hasNextPage) return { nodes, counts: [...counts] };
  }
}

/**
 * One language's listing, shown consistent: passes read until one lists the same cards in the same order as the pass
 * before it (or as `agreeWith`, the English listing, for a language's titles); after MAX_PASSES, an error.
 */
async function fetchListing(
  endpoint: string,
  backoffMs: number,
  language: string,
  progress: (line: string) => void,
  agreeWith?: string,
): Promise<{ nodes: unknown[]; listing: string }> {
  let before = agreeWith;
  let disagreed: string | undefined;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const { nodes, counts } = await fetchPass(endpoint, backoffMs, language, progress);
    // A pass whose pages disagree on the endpoint's count, or that read another number of cards than it says, saw
    // the listing move under it (a card that slid across a page's boundary is in none of its pages): never taken.
    if (counts.length !== 1 || counts[0] !== nodes.length) {
      disagreed = `its pages disagree on the count (${counts.join(', ')}; ${nodes.length} read)`;
      progress(`a pass (${language}) read again: ${disagreed}`);
      before = agreeWith;
      continue;
    }
    const listing = listingOf(nodes);
    if (listing === before) return { nodes, listing };
    if (before !== undefined) progress(`the listing (${language}) changed while it was read: reading it again`);
    before = listing;
  }
  throw new CatalogueFormatError(
    `the endpoint's listing (${language}) changed while it was read: ${MAX_PASSES} passes and no two in a row alike, each whole and agreeing with its own count${disagreed ? ` (the last that was not: ${disagreed})` : ''}; nothing taken`,
  );
}

/** The endpoint to read: KARDS_GRAPHQL_ENDPOINT (a mirror, or a test's stand-in), else the official one. */
export const officialEndpoint = (env: NodeJS.ProcessEnv = process.env): string => env.KARDS_GRAPHQL_ENDPOINT || KARDS_ENDPOINT;

export interface FetchOptions {
  endpoint: string;
  /** The languages wanted (default: every language of the game). */
  languages?: readonly string[];
  /** The first wait after a failed page (doubled each attempt): DECKCTL_BACKOFF_MS, else 1 s. */
  backoffMs?: number;
  progress?: (line: string) => void;
}

/** Every card node of the endpoint, titled in every language asked that it has. */
export async function fetchNodes({ endpoint, languages, backoffMs, progress = () => undefined }: FetchOptions): Promise<unknown[]> {
  const backoff = backoffMs ?? (Number(process.env.DECKCTL_BACKOFF_MS) || 1_000);
  const english = await fetchListing(endpoint, backoff, 'en', progress);
  let nodes = english.nodes;
  // A language no title of the first pass has is asked for in a pass of its own (an endpoint may title its
  // cards in every locale at once, or in the one asked and English only): its titles joined to the first's.
  for (const language of untitled(nodes, languages ?? KARDS_LANGUAGES))
    nodes = withTitlesOf(nodes, (await fetchListing(endpoint, backoff, language, progress, english.listing)).nodes, language);
  return nodes;
}
