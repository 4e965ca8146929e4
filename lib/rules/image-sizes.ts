/**
 * The sizes a deck image is drawn at (contract §9.3, §12.5), pure data: the name a link asks for it by
 * (`size=`), its pixels, and the width it is shown at where it is meant to be read. `wide` is the link preview's
 * 1200×630 (Open Graph's and Twitter's large card); `embed` is for a chat embed that shows it 400 px wide
 * (Discord fits an embed's image into 400×300: a 4:3 picture is shown whole, a third of its size).
 */
export const IMAGE_SIZES = {
  wide: { width: 1200, height: 630, shown: 1200 },
  embed: { width: 1200, height: 900, shown: 400 },
} as const;
export type ImageSize = keyof typeof IMAGE_SIZES;
/** What an image link without `size` draws. */
export const DEFAULT_IMAGE_SIZE: ImageSize = 'wide';
