/** Cards: the catalogue, where card_id values come from (contract §4). */
import { CardLanguageQuery, CardQuery } from '#shapes/queries.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { CardId } from './params.ts';
import { type Declared, routes } from './route.ts';

export const CARD_ROUTES = routes({
  listCards: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: '/api/v1/cards',
    query: CardQuery,
    catalogue: true,
    cursors: true,
    grants: [],
    summary: 'The card catalogue',
    description:
      'The source of card_id values. Changes only with a deployment: cacheable, with an ETag. Names in the language asked (lang, else Accept-Language; labels in it whatever the catalogue, card names in English where the catalogue lacks it: Content-Language lists both); q matches the name in that language.',
    tag: 'Cards',
    success: {
      status: 200,
      data: 'Card[]',
      meta: 'CardListMeta',
      headers: ['ETag', 'Cache-Control', 'Content-Language', 'Vary'],
      conditional: true,
    },
  } as const satisfies Declared,
  readCard: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: '/api/v1/cards/{card_id}',
    params: { card_id: CardId },
    query: CardLanguageQuery,
    catalogue: true,
    grants: [],
    summary: 'One card',
    description:
      'A card of the catalogue by its card_id; an unknown id is 404 card_not_found. Its name in the language asked (lang, else Accept-Language; labels in it whatever the catalogue, card names in English where the catalogue lacks it: Content-Language lists both).',
    tag: 'Cards',
    success: { status: 200, data: 'Card', headers: ['ETag', 'Cache-Control', 'Content-Language', 'Vary'], conditional: true },
    errors: ['card_not_found'],
  } as const satisfies Declared,
  listLanguages: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: '/api/v1/languages',
    catalogue: true,
    grants: [],
    summary: 'The languages served',
    description:
      "The languages answers are given in — the game's 12: each one's tag (what `lang` or Accept-Language asks for), its name in itself, and `card_names`, the language card names come in when it is asked: the same tag where the catalogue names its cards in it, else `en` (Content-Language then lists both, e.g. `ja, en`). Any other language asked is answered in English. In a language, faction names and every label of a page, an image and a Discord answer are in it whatever the catalogue. Changes only with a deployment or a catalogue: cacheable, with an ETag.",
    tag: 'Cards',
    success: { status: 200, data: 'Language[]', headers: ['ETag', 'Cache-Control'], conditional: true },
  } as const satisfies Declared,
});
