/**
 * The sizes a deck image is drawn at (contract §9.3, §12.5), pure data: the name a link asks for it by
 * (`size=`), its pixels, and the width it is shown at where it is meant to be read. `embed`, the default, is for a
 * chat embed that shows it 400 px wide (Discord fits an embed's image into 400×300: a 4:3 picture is shown whole, a
 * third of its size); `wide` is the 1200×630 of Open Graph's and Twitter's large card, the cards in columns.
 */
import { DEFAULT_LANGUAGE } from './languages.ts';

export const IMAGE_SIZES = {
  wide: { width: 1200, height: 630, shown: 1200 },
  embed: { width: 1200, height: 900, shown: 400 },
} as const;
export type ImageSize = keyof typeof IMAGE_SIZES;
/** What an image link without `size` draws: the one that reads where Discord shows it (contract §13.1); `wide` is asked for. */
export const DEFAULT_IMAGE_SIZE: ImageSize = 'embed';

/**
 * The query of a link to an image: its language (none for English, else `lang`), its size where not the default, and the version of the catalogue it is drawn
 * from (contract §11.5), so that a new catalogue is a new URL and what keeps an image by its URL (the edge,
 * Discord's media proxy) fetches the new drawing. The image routes declare `catalogue` (it is in the edge's cache
 * key) and draw with the catalogue they have, whatever it says.
 */
export function imageQuery(language: string, catalogue: string, size: ImageSize = DEFAULT_IMAGE_SIZE): string {
  const query = new URLSearchParams(language === DEFAULT_LANGUAGE ? {} : { lang: language });
  if (size !== DEFAULT_IMAGE_SIZE) query.set('size', size);
  query.set('catalogue', catalogue);
  return `?${query}`;
}
