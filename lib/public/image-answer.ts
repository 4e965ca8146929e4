/**
 * A deck image as an answer (contract §9.3, §10.2): the sheet in the reader's language — in English when
 * a name is one the shipped fonts cannot draw (a script none of them holds, or a character the
 * catalogue's names did not have at synth), never boxes, and the answer says English — its validators
 * (one ETag per language, contract §10.1), 304 on a match before anything is drawn, else the PNG.
 */
import { catalogue } from '#catalogue/load.ts';
import { validators } from '#http/cache.ts';
import type { Headed, NotModified, Raw } from '#http/types.ts';
import { DEFAULT_IMAGE_SIZE, type ImageSize } from '#rules/image-sizes.ts';
import { DEFAULT_LANGUAGE } from '#rules/languages.ts';
import { embedImageLayout } from '#share/embed-image.ts';
import { deckImageSvg, type Measure } from '#share/image.ts';
import { drawable, measurerFor, renderPng } from '#share/png.ts';
import type { DeckSheet } from '#share/sheet.ts';
import { languageHeaders } from './language.ts';

/** Changed when the renderer or its fonts change in a way the SVG does not show. */
export const RENDERER = 'resvg-wasm 2.6 / Inter 4, Noto Sans SC, TC, JP, KR 2, a face a language / 7';

/** Each size's drawing (lib/rules/image-sizes.ts): the wide image's columns, the embed's running text. */
const DRAW: Record<ImageSize, (sheet: DeckSheet, measure: Measure) => string> = {
  wide: deckImageSvg,
  embed: (sheet, measure) => embedImageLayout(sheet, measure).svg,
};
/** The SVG of `sheet` at `size`, measured by the faces of its language. */
export const imageSvg = (sheet: DeckSheet, size: ImageSize): string => DRAW[size](sheet, measurerFor(sheet.language));

/** The size an image request asks for (`size`), else the wide one. */
export const sizeOf = (req: { query: { size?: ImageSize } }): ImageSize => req.query.size ?? DEFAULT_IMAGE_SIZE;

/**
 * An owner's text as the image draws it: composed (NFC), at most one combining mark after a character (a stack of
 * them is drawn over the lines around it while measured as nothing), and each character the language's faces lack
 * drawn as "?" — never a box, and never one that makes the renderer give up the fallback of the whole line.
 */
export function drawnText(text: string, language: string): string {
  let out = '';
  for (const ch of text.normalize('NFC').replace(/(\p{M})\p{M}+/gu, '$1')) out += drawable(ch, language) ? ch : '?';
  return out;
}

/**
 * The sheet `sheetIn` makes in `language`, or in English when the fonts cannot draw one of its card names; the
 * owner's text in it (the byline, guide system, tags, reasons, chart labels) as drawnText makes it.
 */
export function drawableSheet(sheetIn: (language: string) => DeckSheet, language: string): DeckSheet {
  const asked = sheetIn(language);
  const sheet = asked.groups.every((g) => g.cards.every((c) => drawable(c.name, language))) ? asked : sheetIn(DEFAULT_LANGUAGE);
  const drawn = (text: string) => drawnText(text, sheet.language);
  const reasoned = (items: DeckSheet['keyComponents']) => items.map((i) => ({ ...i, reason: drawn(i.reason) }));
  return {
    ...sheet,
    // A deck's name is its factions' (rules/factions.ts deckName): drawn in the image's language, as a code's is.
    name: `${sheet.main} / ${sheet.ally}`,
    author: sheet.author === null ? null : drawn(sheet.author),
    system: drawn(sheet.system),
    tags: sheet.tags.map(drawn),
    keyComponents: reasoned(sheet.keyComponents),
    alternatives: reasoned(sheet.alternatives),
    otk: sheet.otk.map((line) => ({ ...line, label: drawn(line.label) })),
  };
}

/**
 * The image of `sheet` at `size`: validated by `drawing` (what names what is drawn: the drawing's own text, or
 * what it is made from) with the renderer, the language and the size; a matching If-None-Match is 304 with
 * nothing drawn.
 */
export async function imageAnswer(
  req: Headed,
  sheet: DeckSheet,
  size: ImageSize,
  drawing: string,
  svg?: string,
): Promise<Raw | NotModified> {
  const { headers: own, notModified } = validators(req, `${RENDERER}\n${sheet.language}\n${size}\n${drawing}`);
  const headers = { ...own, ...languageHeaders(sheet.language, catalogue()) };
  if (notModified) return { status: 304, data: undefined, headers };
  return {
    data: undefined,
    headers,
    raw: { contentType: 'image/png', body: await renderPng(svg ?? imageSvg(sheet, size)) },
  };
}
