/**
 * The language of an answer that names cards (contract §10.1): `lang`, else the best of Accept-Language
 * the catalogue has, else English (rules/languages.ts); said in Content-Language, and Vary names
 * Accept-Language (the same URL answers in another language to another reader). Card names follow it;
 * deck names, tags and guides are the owner's text and never do.
 */
import type { Headed } from '#http/types.ts';
import { type Card, cardName } from '#rules/card.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { answerLanguage, DEFAULT_LANGUAGE } from '#rules/languages.ts';

export const languageOf = (req: Headed & { query: { lang?: string } }, catalogue: Catalogue): string =>
  answerLanguage(req.query.lang, req.headers['accept-language'], catalogue.languages);

export const languageHeaders = (language: string): Record<string, string> => ({ 'content-language': language, vary: 'accept-language' });

/** The query a link to an answer in `language` carries: none for English (every route's default), else `?lang=`. */
export const languageQuery = (language: string): string => (language === DEFAULT_LANGUAGE ? '' : `?lang=${language}`);

/**
 * The query of a link to an image: its language (as languageQuery) and the version of the catalogue it is drawn
 * from (contract §11.5), so that a new catalogue is a new URL and what keeps an image by its URL (the edge,
 * Discord's media proxy) fetches the new drawing. The image routes declare `catalogue` (it is in the edge's cache
 * key) and draw with the catalogue they have, whatever it says.
 */
export function imageQuery(language: string, catalogue: string): string {
  const query = new URLSearchParams(language === DEFAULT_LANGUAGE ? {} : { lang: language });
  query.set('catalogue', catalogue);
  return `?${query}`;
}

/** A card as answers show it: its name in the language, without its names by language. */
export function localCard(card: Card, language: string): Omit<Card, 'names' | 'reserved'> {
  // The card as the contract's card model shows it (§1): its Reserve-pool mark is legality's to report (§11.5).
  const { names: _names, reserved: _reserved, ...shown } = card;
  return { ...shown, name: cardName(card, language) };
}
