/**
 * The official KARDS catalogue as its GraphQL endpoint answers it (the kards.com deck builder's `cards`
 * query, 20 nodes a page by `offset`: its shape as AABur/kardscm reads it, recorded in
 * ../shared/reference/kards/kards_api_baseline.kardscm.json), made into the project's catalogue: each
 * card once, its English title as `name` and its titles by language as `names` (contract §10.1). Pure:
 * pages in, cards out, or a CatalogueFormatError naming the card. The fetching is lib/cli/catalogue-fetch.ts.
 */
import { type Card, CatalogueFormatError, checkCard, kardsCard, makeCatalogue } from './catalogue.ts';
import { LANGUAGES } from './i18n/index.ts';
import { DEFAULT_LANGUAGE, LANGUAGE, languageOfTag } from './languages.ts';

/**
 * The game's languages, by the locale of the endpoint's titles: "all supported languages on kards.com"
 * as a public bot that reads the same endpoint lists them (alex-weber/katy-kards-bot
 * `src/tools/language.js`, APILanguages: `ja-JP` for Japanese, `zh-Hant` for Traditional Chinese).
 */
export const KARDS_LOCALES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.fromEntries(
  LANGUAGES.map((l) => [l.tag, l.kardsLocale]),
);
/** What `deckctl catalogue fetch` asks for when not told: every language of the game. */
export const KARDS_LANGUAGES = Object.keys(KARDS_LOCALES);
/**
 * The `language` a pass asks the endpoint for: the kards.com site's language (its pages' path: `en`, `de`,
 * `ja`, `zh-Hans`, `zh-Hant`). The deck builder sends `language: "en"` (AABur/kardscm constants.py
 * GRAPHQL_VARIABLES); what it sends for the others is not recorded anywhere this project could read, so
 * the fetch does not depend on it: a pass whose titles lack the language asked leaves it out (reported).
 */
export const passLanguage = (language: string): string => (language === 'zh' ? 'zh-Hans' : language);

/** Cards a page holds (the query's `first`: the deck builder's, fixed in the query). */
export const PAGE_SIZE = 20;

/** The query, as the deck builder sends it (the fields this project reads, and the flags for every card). */
export const CARDS_QUERY = `query getCards($language: String, $offset: Int, $showSpawnables: Boolean, $showExiles: Boolean, $showReserved: Boolean) {
  cards(language: $language, first: ${PAGE_SIZE}, offset: $offset, showSpawnables: $showSpawnables, showExiles: $showExiles, showReserved: $showReserved) {
    pageInfo { count hasNextPage }
    edges { node { id cardId importId json reserved } }
  }
}`;

/** Every card: tokens (spawnables) and cards out of the shop (reserved) too; an exile's other copy not (it is the same card). */
export const cardsVariables = (offset: number, language: string = DEFAULT_LANGUAGE) => ({
  language: passLanguage(language),
  offset,
  showSpawnables: true,
  showExiles: false,
  showReserved: true,
});

export interface CardsPage {
  count: number;
  hasNextPage: boolean;
  nodes: unknown[];
}

/** A page of the answer, or an error saying what is wrong with it. */
export function pageOf(answer: unknown): CardsPage {
  const cards = (answer as { data?: { cards?: unknown } } | null)?.data?.cards as
    | { pageInfo?: { count?: unknown; hasNextPage?: unknown }; edges?: unknown }
    | undefined;
  const errors = (answer as { errors?: { message?: string }[] } | null)?.errors;
  if (errors?.length) throw new CatalogueFormatError(`the endpoint answered an error: ${errors.map((e) => e.message).join('; ')}`);
  if (
    !cards ||
    !Array.isArray(cards.edges) ||
    typeof cards.pageInfo?.hasNextPage !== 'boolean' ||
    typeof cards.pageInfo?.count !== 'number'
  )
    throw new CatalogueFormatError('the answer is not a page of cards (data.cards with pageInfo and edges)');
  return {
    count: cards.pageInfo.count,
    hasNextPage: cards.pageInfo.hasNextPage,
    nodes: cards.edges.map((e) => (e as { node?: unknown } | null)?.node),
  };
}

/** A page that is short of what its pageInfo says (a page of 20 before the last; the last page's rest of count). */
export function checkPage(page: CardsPage, offset: number): void {
  // A page that says there is more past its own count would have the fetch walk on for ever.
  if (page.hasNextPage && offset + PAGE_SIZE >= page.count)
    throw new CatalogueFormatError(`the page at offset ${offset} says there is more past the ${page.count} cards it counts`);
  const expected = page.hasNextPage ? PAGE_SIZE : page.count - offset;
  if (page.nodes.length !== expected)
    throw new CatalogueFormatError(
      `the page at offset ${offset} holds ${page.nodes.length} cards where ${expected} were due (count ${page.count})`,
    );
}

interface Node {
  cardId?: unknown;
  importId?: unknown;
  /** In the Reserve pool (on the node and in its json: kardscm's recorded shape has both). */
  reserved?: unknown;
  json?: {
    id?: unknown;
    import_id?: unknown;
    title?: Record<string, unknown>;
    faction?: unknown;
    type?: unknown;
    rarity?: unknown;
    set?: unknown;
    kredits?: unknown;
    exile?: unknown;
    reserved?: unknown;
  };
}

/**
 * A node's titles by language: the game's locale of each (KARDS_LOCALES) where it has it, else the first
 * locale that stands for that language (`en-EN` → en, `zh-TW` → zh-Hant, `zh-CN` → zh).
 */
function titlesOf(title: Record<string, unknown>): Map<string, string> {
  const byLanguage = new Map<string, string>();
  const usable = (text: unknown): text is string => typeof text === 'string' && text.trim() !== '';
  for (const [language, locale] of Object.entries(KARDS_LOCALES))
    if (Object.hasOwn(title, locale) && usable(title[locale])) byLanguage.set(language, title[locale]);
  for (const [locale, text] of Object.entries(title)) {
    const language = languageOfTag(locale);
    if (usable(text) && LANGUAGE.test(language) && !byLanguage.has(language)) byLanguage.set(language, text);
  }
  return byLanguage;
}

/** What names a node across passes: its import id, else its own id. */
const nodeKey = (node: unknown): string | undefined => {
  const n = node as Node | null;
  const key = n?.importId || n?.json?.import_id || n?.json?.id || n?.cardId;
  return typeof key === 'string' && key !== '' ? key : undefined;
};

/** What a pass lists: its cards' keys in order (two passes that list the same cards in the same order agree). */
export const listingOf = (nodes: readonly unknown[]): string => nodes.map((n) => nodeKey(n) ?? '?').join(',');

/**
 * Languages asked for that no node of `nodes` has a title in: the passes still to make (`deckctl catalogue
 * fetch` asks the endpoint again, a pass a language, with that `language`).
 */
export function untitled(nodes: readonly unknown[], languages: readonly string[]): string[] {
  const had = new Set(nodes.flatMap((n) => [...titlesOf(((n as Node | null)?.json?.title ?? {}) as Record<string, unknown>).keys()]));
  return languages.filter((l) => !had.has(l));
}

/**
 * The nodes of the first pass with each card's title in `language` taken from a later pass that asked for it
 * (matched by import id, else id): whichever way the endpoint gives titles — every locale in one answer, or
 * only the one asked (and English) — the first pass's nodes end up with every title there is. A card of the
 * later pass that the first lacks is not added (the first pass is the catalogue).
 */
export function withTitlesOf(nodes: readonly unknown[], pass: readonly unknown[], language: string): unknown[] {
  const titles = new Map<string, string>();
  for (const node of pass) {
    const key = nodeKey(node);
    const title = titlesOf(((node as Node | null)?.json?.title ?? {}) as Record<string, unknown>).get(language);
    if (key !== undefined && title !== undefined) titles.set(key, title);
  }
  return nodes.map((node) => {
    const key = nodeKey(node);
    const title = key === undefined ? undefined : titles.get(key);
    const json = (node as Node | null)?.json;
    if (title === undefined || typeof json !== 'object' || json === null) return node;
    return { ...(node as object), json: { ...json, title: { ...json.title, [KARDS_LOCALES[language] ?? language]: title } } };
  });
}

export interface FetchedCatalogue {
  cards: Card[];
  /** The languages its cards are named in (those asked that any title had; English always). */
  languages: string[];
  /** Languages asked for that no card's title had: left out. */
  missing: string[];
}

/**
 * The nodes of every page made into cards (each once), named in the languages asked (the game's, when
 * none is asked; one no title has is reported in `missing` and left out). Refuses (CatalogueFormatError naming the card) a node it cannot map, an
 * import id that repeats, and an empty result.
 */
export function catalogueOf(nodes: readonly unknown[], languages: readonly string[] = KARDS_LANGUAGES): FetchedCatalogue {
  if (nodes.length === 0) throw new CatalogueFormatError('the endpoint gave no cards');
  const seen = new Map<string, number>();
  const named = new Set<string>();
  const cards = nodes.map((raw, i) => {
    const node = raw as Node | null;
    const json = node?.json;
    const what = () =>
      `card [${i}]${typeof node?.importId === 'string' && node.importId ? ` (import id ${node.importId.slice(0, 70)})` : ''}`;
    if (typeof json !== 'object' || json === null) throw new CatalogueFormatError(`${what()}: no json`);
    if (typeof json.title !== 'object' || json.title === null) throw new CatalogueFormatError(`${what()}: no title`);
    const titles = titlesOf(json.title);
    const english = titles.get(DEFAULT_LANGUAGE);
    if (english === undefined) throw new CatalogueFormatError(`${what()}: no English title`);
    const importId = typeof node?.importId === 'string' ? node.importId : typeof json.import_id === 'string' ? json.import_id : '';
    let card: Card;
    try {
      card = kardsCard({
        id: typeof json.id === 'string' ? json.id : node?.cardId,
        importId,
        name: english,
        nation: json.faction,
        type: json.type,
        rarity: json.rarity,
        set: json.set,
        kredits: json.kredits ?? 0,
        exile: json.exile ?? null,
        reserved: node?.reserved === true || json.reserved === true,
      });
    } catch (e) {
      throw new CatalogueFormatError(`${what()} ${english.slice(0, 80)}: ${(e as Error).message}`);
    }
    if (importId !== '') {
      const before = seen.get(importId);
      if (before !== undefined) throw new CatalogueFormatError(`${what()} ${english}: import id ${importId} repeats card [${before}]`);
      seen.set(importId, i);
    }
    const names = Object.fromEntries([...titles].filter(([language]) => languages.includes(language)));
    for (const language of Object.keys(names)) named.add(language);
    // Written only as the service loads it: the file `catalogue fetch` writes is one the service takes.
    const wrong = checkCard({ ...card, names });
    if (wrong) throw new CatalogueFormatError(`${what()} ${english.slice(0, 80)}: ${wrong}`);
    return { ...card, names };
  });
  makeCatalogue(cards); // a card id twice (an import id, or a token's own id) is refused there
  return {
    cards,
    languages: [DEFAULT_LANGUAGE, ...languages.filter((l) => l !== DEFAULT_LANGUAGE && named.has(l)).sort()],
    missing: languages.filter((l) => !named.has(l)),
  };
}
