/** Share pages and deck images (contract §9.3): what people open and link previews show. */

import { CardLanguageQuery, ImageQuery } from '#shapes/language-query.ts';
import { IMAGE_FILES, IMAGE_SUBSET_FONTS } from '#share/fonts.ts';
import { PLAYS } from '#store/items/plays.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { ShareSlug } from './params.ts';
import { type Declared, decks, query, routes, type Success } from './route.ts';

export { IMAGE_FILES, IMAGE_SUBSET_FONTS };

/** What a deck image answers: a PNG, its validators (304 on a match) and its language. */
export const IMAGE_SUCCESS = {
  status: 200,
  data: 'Text',
  bare: true,
  contentType: 'image/png',
  headers: ['ETag', 'Cache-Control', 'Content-Language', 'Vary'],
  conditional: true,
} as const satisfies Success;
/** What a share page answers: HTML under its policy, in its language. */
export const HTML_SUCCESS = {
  status: 200,
  data: 'Text',
  bare: true,
  contentType: 'text/html',
  headers: ['Cache-Control', 'Content-Security-Policy', 'X-Frame-Options', 'Content-Language', 'Vary'],
} as const satisfies Success;

export const SHARE_ROUTES = routes({
  readSharePage: {
    // The share page people open (contract §9.3): a view, counted as the JSON read's (lib/routes/workers.ts VIEW_SUBSCRIPTION).
    method: 'GET',
    path: '/d/{share_slug}',
    params: { share_slug: ShareSlug },
    query: CardLanguageQuery,
    catalogue: true,
    // The deck, and what the library's public decks of its main nation play (each card's "in N%").
    grants: [query('by_share_slug'), decks(['GetItem'], [PLAYS.grant])],
    summary: 'The share page of a public or unlisted deck',
    description:
      "An HTML page for people (not JSON): the deck's cards by kredit cost (each with the share of the library's public decks of its main nation that play it), its kredit curve and types, guide and OTK chart, its code with a copy button, and the Open Graph and Twitter tags link previews read (og:image is the deck image). Unlisted decks carry robots noindex. Card names in the language asked (lang, else Accept-Language; labels in it whatever the catalogue, card names in English where the catalogue lacks it; <html lang> says which); the owner's text as written. Counts one view, as the JSON read does. A private or unknown slug answers a 404 page (HTML).",
    tag: 'Public decks',
    success: HTML_SUCCESS,
    htmlErrors: [404],
  } as const satisfies Declared,
  readDeckImage: {
    // The deck image unfurlers show (contract §9.3): drawn in the function with the renderer and font it ships. Not
    // kept at the edge (contract §12.4): a deck turned private, deleted or erased is 404 at once through it, where a
    // copy kept 5 minutes went on answering 200. Its cost: every read reaches the function (≈ $5.56 a
    // million at 250 ms a render, docs/operations.md); the images of codes, which nothing makes private, stay cached.
    cache: LIFETIMES.deckImage,
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/image.png',
    params: { share_slug: ShareSlug },
    query: ImageQuery,
    catalogue: true,
    files: IMAGE_FILES,
    subsetFonts: IMAGE_SUBSET_FONTS,
    memory: 1024,
    capped: true,
    grants: [query('by_share_slug')],
    summary: 'The image of a public or unlisted deck',
    description:
      'A PNG (1200×900 by default, readable where it is shown 400 px wide, as a Discord embed shows it; size=wide: the 1200×630 large card): name, factions, author, the cards by kredit cost with copies, the kredit curve. Card names in the language asked (lang, else Accept-Language; labels in it whatever the catalogue, card names in English where the catalogue lacks it: Content-Language lists both). Its ETag changes with the deck, the catalogue and the language; send it back as If-None-Match for a 304. Counts no view. The links the service prints carry catalogue=<version> (a new catalogue, a new URL for caches that key on it); it changes nothing drawn.',
    tag: 'Public decks',
    success: IMAGE_SUCCESS,
    errors: ['deck_not_found'],
  } as const satisfies Declared,
});
