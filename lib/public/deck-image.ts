/**
 * GET /api/v1/decks/:share_slug/image.png — a 1200×630 PNG of a public or unlisted deck (contract
 * §9.3), drawn in the function, its card names in the reader's language (§10.1). Its ETag is the
 * drawing's: the deck's version, the language and the SVG made from the deck and the catalogue (a card
 * renamed in a new catalogue changes it); a matching If-None-Match is 304 with no render. Counts no view.
 */
import { catalogue } from '#catalogue/load.ts';
import { sharedDeck } from '#decks/shared-deck.ts';
import { endpoint } from '#http/types.ts';
import { SHARE_ROUTES as R } from '#routes/share.ts';
import { prepareRenderer } from '#share/png.ts';
import { deckSheet } from '#share/sheet.ts';
import { documentClient } from '#store/client.ts';
import { drawableSheet, imageAnswer, imageSvg, sizeOf } from './image-answer.ts';
import { languageOf } from './language.ts';

export const readDeckImage = endpoint(R.readDeckImage, { init: [catalogue, documentClient, prepareRenderer] }, async (req) => {
  const deck = await sharedDeck(req.params.share_slug);
  const sheet = drawableSheet((language) => deckSheet(deck, catalogue(), language), languageOf(req));
  const size = sizeOf(req);
  const svg = imageSvg(sheet, size);
  return imageAnswer(req, sheet, size, `${deck.version}\n${svg}`, svg);
});
