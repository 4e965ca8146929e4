/**
 * What the bench's parts share: the run's options, its tables, the library it sets up on a DynamoDB
 * Local of its own, and requests through a route's handler module in this process.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { archetypeRules } from '#catalogue/archetypes.ts';
import { demoCatalogue } from '#catalogue/load.ts';
import { archetypeAnswer } from '#rules/archetype-of.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { deckName, FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/events.ts';
import { legalCode, storedDeck } from '../../test/support/decks.ts';

export const QUICK = process.argv.includes('--quick');
/** `--routes a,b`: part 3 (bundles and cold starts) of these routes alone, and no other part. */
export const ONLY_ROUTES = (() => {
  const at = process.argv.indexOf('--routes');
  return at < 0 ? undefined : new Set((process.argv[at + 1] ?? '').split(',').filter(Boolean));
})();
export const ROOT = resolve(import.meta.dirname, '../..');
export type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** What the setup made, for every part: an owner and their key, 50 public decks of theirs, a library of other public decks. */
export interface Bench {
  dynamoEndpoint: string;
  /** A directory of the run's own (bundles, catalogue files). */
  work: string;
  account: { user_id: string };
  apiKey: string;
  decksPath: string;
  owned: { id: string; share_slug: string }[];
  library: StoredDeck[];
  /** The owner's first deck: the one read, shared and PATCHed. */
  shared: { id: string; share_slug: string };
  /** A public deck of the owner's with 25 versions (made, then PATCHed 24 times): its history is read and restored. */
  history: { id: string; share_slug: string };
}

/**
 * The bench's writes whose units docs/operations.md gives (test/api/costs.test.ts measures the same bodies and
 * holds the docs to them): the owner's decks (the first PATCHed), a public create of two tags, and the library
 * deck whose first like is folded (the one before it is the warm-up's).
 */
export const ownedDeckBody = (i: number) => ({
  deck_code: legalCode(demoCatalogue(), 'soviet', 'usa', 12, i),
  guide: { system: 'Bench' },
  visibility: 'public',
  tags: ['bench'],
});
export const publicCreateBody = () => ({
  deck_code: legalCode(demoCatalogue(), 'soviet', 'usa'),
  guide: { system: 'B' },
  visibility: 'public',
  tags: ['a', 'b'],
});
export const LIKED_DECK = 199;

export const table = (head: string[], rows: (string | number)[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) => r.map((c, i) => String(c).padEnd(widths[i] as number)).join('  ');
  console.log([line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));
};
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

export function publicDeck(i: number, cat = demoCatalogue()): StoredDeck {
  const main = MAIN_FACTION_IDS[i % MAIN_FACTION_IDS.length] as FactionId;
  const ally = FACTION_IDS.filter((f) => f !== main)[Math.floor(i / 5) % 9] as FactionId;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return storedDeck({
    share_slug: `b${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    author_name: `Author ${i % 50}`,
    name: deckName(main, ally),
    main_faction: main,
    ally_faction: ally,
    deck_code: legalCode(cat, main, ally, 12, i),
    // What a write keeps: its archetype by the rules in use with the catalogue it is of.
    archetype: archetypeAnswer(archetypeRules(cat), parseDeckCode(legalCode(cat, main, ally, 12, i)), 'en'),
    tags: [`tag${i % 20}`],
    guide: { system: ['Blitz', 'Control', 'Tempo'][i % 3] as string, description: '', core_cards: [], reserve_recommendations: [] },
    created_at: at,
    updated_at: at,
  });
}

/** A route's handler and a maker of its event and context (fresh per call: a request id of their own). */
export async function prepared(method: string, url: string, key?: string, body?: unknown, extra: Record<string, string> = {}) {
  const { route, params } = matchRoute(method, new URL(url, 'http://x').pathname);
  const { handler } = (await import(resolve(ROOT, route.handler))) as { handler: Handler };
  const headers: Record<string, string> = {
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...extra,
  };
  return {
    event: (): [APIGatewayProxyEventV2, Context] => [
      toEvent({ method, url, headers, body: Buffer.from(body ? JSON.stringify(body) : '') }, route, params),
      lambdaContext(route),
    ],
    run: ([event, context]: [APIGatewayProxyEventV2, Context]) => handler(event, context),
  };
}

export async function invoke(method: string, url: string, key?: string, body?: unknown) {
  const handle = await prepared(method, url, key, body);
  return handle.run(handle.event());
}
