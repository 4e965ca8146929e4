/**
 * Any deck code, no account (contract §10.2): its facts for a bot, its image and its page for people and
 * link previews. Nothing is stored or read from the store: a code is the whole deck. Each answers a
 * non-canonical spelling of its code with 308 to the canonical URL form (`redirects`).
 */
import { CardLanguageQuery, ImageQuery } from '#shapes/language-query.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { BY_LANGUAGE, CODE_PATHS } from './code-paths.ts';
import { Code } from './params.ts';
import { type Declared, routes } from './route.ts';
import { HTML_SUCCESS, IMAGE_FILES, IMAGE_SUBSET_FONTS, IMAGE_SUCCESS } from './share.ts';

export const CODE_ROUTES = routes({
  readCode: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: CODE_PATHS.facts,
    params: { code: Code },
    query: CardLanguageQuery,
    catalogue: true,
    redirects: true,
    grants: [],
    summary: "A deck code's facts",
    description: `What a bot needs of a pasted code: its factions, every card (name, kredits, type, rarity, faction, copies; by kredits, then name), its stats and its legality against today's catalogue (a card the catalogue does not know has nulls, and legality names it), its canonical forms and the URLs of its page and image. ${BY_LANGUAGE} A code that does not parse is 400 invalid_parameter, saying what is wrong and at which offset.`,
    tag: 'Deck codes',
    success: { status: 200, data: 'CodeFacts', headers: ['ETag', 'Cache-Control', 'Content-Language', 'Vary'], conditional: true },
  } as const satisfies Declared,
  readCodeImage: {
    edge: 'cached',
    cache: LIFETIMES.codeImage,
    method: 'GET',
    path: CODE_PATHS.image,
    params: { code: Code },
    query: ImageQuery,
    catalogue: true,
    redirects: true,
    files: IMAGE_FILES,
    subsetFonts: IMAGE_SUBSET_FONTS,
    memory: 1024,
    capped: true,
    grants: [],
    summary: 'The image of a deck code',
    description: `A PNG, as a saved deck's image (1200×900 by default, readable where it is shown 400 px wide; size=wide: 1200×630): the factions' names as its title, no author; an illegal deck says why after its card count and draws the cards a rule fails on in red. ${BY_LANGUAGE} Cached a day; its ETag changes with the code, the catalogue, the drawing and the language (If-None-Match: 304, nothing drawn). Its function's concurrency and its route's rate are capped: a flood gets 429 from API Gateway. The links the service prints carry catalogue=<version> (a new catalogue, a new URL for caches that key on it); it changes nothing drawn.`,
    tag: 'Deck codes',
    success: IMAGE_SUCCESS,
  } as const satisfies Declared,
  readCodePage: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: CODE_PATHS.page,
    params: { code: Code },
    query: CardLanguageQuery,
    catalogue: true,
    redirects: true,
    grants: [],
    summary: 'The page of a deck code',
    description: `An HTML page for people, as a saved deck's share page without author, guide or views: the cards by kredit cost, the kredit curve and types, what breaks the rules today, the code with a copy button, and Open Graph and Twitter tags whose image is the code's image (a pasted link unfurls as a picture). ${BY_LANGUAGE} Kept out of search engines (noindex). A code that does not parse, or a bad lang, answers a 400 page saying what is wrong. Counts no view.`,
    tag: 'Deck codes',
    success: HTML_SUCCESS,
    htmlErrors: [400],
  } as const satisfies Declared,
});
