/**
 * GET /api/v1/decks/:share_slug/image.png — a 1200×630 PNG of a public or unlisted deck (contract
 * §9.3), drawn in the function, its card names in the reader's language (§10.1). Its ETag is the
 * drawing's: the deck's version, the language and the SVG made from the deck and the catalogue (a card
 * renamed in a new catalogue changes it); a matching If-None-Match is 304 with no render. Counts no view.
 */
import { catalogue } from '#catalogue/load.ts';
import { validators } from '#http/cache.ts';
import { endpoint } from '#http/types.ts';
import * as R from '#routes/share.ts';
import { DEFAULT_LANGUAGE } from '#rules/languages.ts';
import { deckImageSvg } from '#share/image.ts';
import { drawable, measureText, prepareRenderer, renderPng } from '#share/png.ts';
import { deckSheet } from '#share/sheet.ts';
import { documentClient } from '#store/client.ts';
import { languageHeaders, languageOf } from './language.ts';
import { sharedDeck } from './shared-deck.ts';

/** Changed when the renderer or its fonts change in a way the SVG does not show. */
const RENDERER = 'resvg-wasm 2.6 / Inter 4, Noto Sans SC 2, Noto Sans KR 2 / 4';

export const readDeckImage = endpoint(R.readDeckImage, { init: [catalogue, documentClient, prepareRenderer] }, async (req) => {
  const deck = await sharedDeck(req.params.share_slug);
  let language = languageOf(req, catalogue());
  let sheet = deckSheet(deck, catalogue(), language);
  // Card names the shipped fonts cannot draw (a script none of them holds, or a character the catalogue's
  // names did not have at synth) are drawn in English, never as boxes, and the answer says English.
  if (!sheet.groups.every((g) => g.cards.every((c) => drawable(c.name)))) {
    language = DEFAULT_LANGUAGE;
    sheet = deckSheet(deck, catalogue(), language);
  }
  const svg = deckImageSvg(sheet, measureText);
  // One ETag per language (contract §10.1), even where its names are all English ones.
  const { headers: own, notModified } = validators(req, `${RENDERER}\n${deck.version}\n${language}\n${svg}`, 'public, max-age=300');
  const headers = { ...own, ...languageHeaders(language) };
  if (notModified) return { status: 304, data: undefined, headers };
  return { data: undefined, headers, raw: { contentType: 'image/png', body: await renderPng(svg) } };
});
