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

/** A card as answers show it: its name in the language, without its names by language. */
export function localCard(card: Card, language: string): Omit<Card, 'names' | 'reserved'> {
  // The card as the contract's card model shows it (§1): its Reserve-pool mark is legality's to report (§11.5).
  const { names: _names, reserved: _reserved, ...shown } = card;
  return { ...shown, name: cardName(card, language) };
}
