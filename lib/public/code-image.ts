/**
 * GET /api/v1/codes/:code/image.png — the image of any deck code (contract §10.2): a saved deck's image
 * with its factions' names as title and no author, an illegal deck's issues marked. Its ETag names the
 * canonical code, the catalogue, the drawing and the language, so a matching If-None-Match is 304 before
 * anything is laid out or drawn; cached a day (a code's image changes only with a deployment).
 */
import { catalogue, catalogueTag } from '#catalogue/load.ts';
import { endpoint } from '#http/types.ts';
import { CODE_ROUTES as R } from '#routes/codes.ts';
import { prepareRenderer } from '#share/png.ts';
import { codeSheet } from '#share/sheet.ts';
import { codeAt } from './code-at.ts';
import { drawableSheet, imageAnswer, sizeOf } from './image-answer.ts';
import { languageOf } from './language.ts';

export const readCodeImage = endpoint(R.readCodeImage, { init: [catalogue, catalogueTag, prepareRenderer] }, async (req) => {
  const at = codeAt(req, R.readCodeImage.path);
  if (at.moved) return at.moved;
  const sheet = drawableSheet((language) => codeSheet(at.deck, catalogue(), language), languageOf(req));
  return imageAnswer(req, sheet, sizeOf(req), `${at.canonical}\n${catalogueTag()}`);
});
