/**
 * `lang`, the language an answer is in (contract §10.1, §12.5): a BCP 47 tag; one not served gives English, one the catalogue lacks
 * English card names (labels in it). Apart from the other queries so that the share routes' declarations (which the
 * not-found function reads) carry only this.
 */
import * as v from 'valibot';
import { DEFAULT_IMAGE_SIZE, IMAGE_SIZES, type ImageSize } from '#rules/image-sizes.ts';
import { LANGUAGE_TAG } from '#rules/languages.ts';

export const lang = v.optional(
  v.pipe(
    v.string(),
    v.regex(LANGUAGE_TAG, 'lang is a language tag such as en, de, ru or zh-Hans'),
    v.metadata<string, { openapi: Record<string, unknown> }>({
      openapi: { type: 'string', pattern: LANGUAGE_TAG.source, examples: ['de'] },
    }),
  ),
);

/** A query of its language alone (one card, a share page, a deck image). */
export const CardLanguageQuery = v.object({ lang });

/**
 * The query of an image: its language, its size (lib/rules/image-sizes.ts: each its own URL, so its own entry at the
 * edge), and the version of the catalogue the link that names it was made with
 * (lib/public/language.ts imageQuery) — declared so that it is in the edge's cache key (a new catalogue, a new
 * cached image); the image is drawn with the catalogue the function has, whatever it says.
 */
export const ImageQuery = v.object({
  lang,
  size: v.optional(
    v.pipe(
      v.picklist(Object.keys(IMAGE_SIZES) as ImageSize[], `size is one of ${Object.keys(IMAGE_SIZES).join(', ')}`),
      v.description(
        `The picture: ${Object.entries(IMAGE_SIZES)
          .map(
            ([name, { width, height, shown }]) =>
              `${name}, ${width}×${height}${name === DEFAULT_IMAGE_SIZE ? ' (the default)' : ''}${shown < width ? ` (readable where it is shown ${shown} px wide, as a Discord embed shows it: every text at least 12 px there, the cards as running text)` : " (a link preview's large card, the cards in columns: its text is small where it is shown 400 px wide)"}`,
          )
          .join('; ')}.`,
      ),
    ),
  ),
  catalogue: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'catalogue is the version of a catalogue, as the links to an image carry it'),
      v.metadata<string, { openapi: Record<string, unknown> }>({
        openapi: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', examples: ['x8Fq2VbN0cLmP4tR7wYz1A'] },
      }),
    ),
  ),
});
