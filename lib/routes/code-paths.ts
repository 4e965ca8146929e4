/**
 * Where a deck code's facts, image and page are (contract §10.2): the paths their routes declare
 * (lib/routes/codes.ts), apart from the declarations, so that what links to them (a pasted deck's facts, a
 * Discord answer) carries the paths and not the routes' declarations and the image's fonts; and the words
 * every code route says of its language.
 */
export const CODE_PATHS = {
  facts: '/api/v1/codes/{code}',
  image: '/api/v1/codes/{code}/image.png',
  page: '/c/{code}',
  similar: '/api/v1/codes/{code}/similar',
} as const;

/** What every code route says of its language. */
export const BY_LANGUAGE =
  'Card and faction names in the language asked (lang, else Accept-Language; labels in it whatever the catalogue, card names in English where the catalogue lacks it: Content-Language lists both).';
