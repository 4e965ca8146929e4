/**
 * `deckctl catalogue fetch --out FILE [--languages en,de,…] [--endpoint URL] [--from SAVED] [--json]`
 * (contract §10.1): the official catalogue, from the KARDS GraphQL endpoint the kards.com deck builder
 * reads (every page, 20 cards each), or from a saved answer of it, written as one catalogue file of the
 * project's format with each card's names by language. Nothing is written unless every page came and
 * every card maps (the error names the card). The card data is the game's publisher's: the project ships
 * none, and an operator fetches it (README, "A real catalogue").
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CatalogueFormatError } from '#rules/catalogue.ts';
import {
  CARDS_QUERY,
  type CardsPage,
  cardsVariables,
  catalogueOf,
  checkPage,
  KARDS_LANGUAGES,
  PAGE_SIZE,
  pageOf,
  untitled,
  withTitlesOf,
} from '#rules/kards-graphql.ts';
import { LANGUAGE, languageOfTag } from '#rules/languages.ts';
import { UsageError } from './usage.ts';

/** The endpoint the kards.com deck builder reads (AABur/kardscm kardscm/constants.py GRAPHQL_URL). */
export const KARDS_ENDPOINT = 'https://api.kards.com/graphql';
/** Attempts a page gets when the endpoint answers 429, 5xx or not at all. */
const ATTEMPTS = 5;
const RETRY_AFTER_MAX_MS = 30_000;

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

/** Every page of one pass (the endpoint asked in one language), checked page by page. */
async function fetchPass(endpoint: string, backoffMs: number, language: string, progress: (line: string) => void): Promise<unknown[]> {
  const nodes: unknown[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await fetchPage(endpoint, offset, backoffMs, language);
    checkPage(page, offset);
    nodes.push(...page.nodes);
    progress(`fetched ${nodes.length} of ${page.count} cards (${language})`);
    if (!page.hasNextPage) return nodes;
  }
}

/** A saved answer: one page's answer, a list of them (in order), or a list of nodes. */
function savedNodes(file: string): unknown[] {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const answers = Array.isArray(saved) ? saved : [saved];
  if (answers.every((a) => typeof a === 'object' && a !== null && ('data' in a || 'errors' in a)))
    return answers.flatMap((answer, i) => {
      const page = pageOf(answer);
      checkPage(page, i * PAGE_SIZE);
      return page.nodes;
    });
  return answers;
}

export async function catalogueFetch(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      languages: { type: 'string' },
      endpoint: { type: 'string' },
      from: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError('catalogue fetch takes no positional argument');
  if (!values.out) throw new UsageError('catalogue fetch needs --out FILE');
  const languages = values.languages?.split(',').map((l) => languageOfTag(l.trim()));
  if (languages?.some((l) => !LANGUAGE.test(l))) throw new UsageError('--languages is a list of language tags: en,de,ja,ru,zh,zh-Hant');
  if (values.from && values.endpoint) throw new UsageError('--from and --endpoint: one source only');
  const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`\r${line}`) : () => undefined;

  let nodes: unknown[];
  if (values.from) nodes = savedNodes(values.from);
  else {
    // A mirror for every run (KARDS_GRAPHQL_ENDPOINT), or for this one (--endpoint).
    const endpoint = values.endpoint ?? (process.env.KARDS_GRAPHQL_ENDPOINT || KARDS_ENDPOINT);
    const backoffMs = Number(process.env.DECKCTL_BACKOFF_MS) || 1_000;
    nodes = await fetchPass(endpoint, backoffMs, 'en', progress);
    // A language no title of the first pass has is asked for in a pass of its own (an endpoint may title its
    // cards in every locale at once, or in the one asked and English only): its titles joined to the first's.
    for (const language of untitled(nodes, languages ?? KARDS_LANGUAGES))
      nodes = withTitlesOf(nodes, await fetchPass(endpoint, backoffMs, language, progress), language);
    progress('\n');
  }
  const fetched = catalogueOf(nodes, languages);
  // Whole or not at all: a file is never left half-written.
  const partial = `${values.out}.partial`;
  writeFileSync(partial, `${JSON.stringify(fetched.cards, null, 1)}\n`);
  renameSync(partial, values.out);
  const summary = { file: values.out, cards: fetched.cards.length, languages: fetched.languages, left_out: fetched.missing };
  console.log(
    values.json
      ? JSON.stringify(summary, null, 2)
      : `wrote ${summary.cards} cards to ${summary.file}, named in ${summary.languages.join(', ')}${
          summary.left_out.length ? ` (no titles in ${summary.left_out.join(', ')}: left out)` : ''
        }`,
  );
  return 0;
}
