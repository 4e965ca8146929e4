/**
 * The language of an answer that names cards (contract §10.1, §12.5): `lang`, else the best of Accept-Language
 * among the served languages, else English (rules/languages.ts). Labels and faction names are in it whatever the
 * catalogue; card names where the catalogue has it, else English. Content-Language says both (`ja`, or `ja, en`
 * when the names are English), and Vary names Accept-Language (the same URL answers in another language to
 * another reader). Deck names, tags and guides are the owner's text and never follow it.
 */
import type { Headed } from '#http/types.ts';
import { type Card, cardName } from '#rules/card.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { answerLanguage, contentLanguage, DEFAULT_LANGUAGE } from '#rules/languages.ts';

export { imageQuery } from '#rules/image-sizes.ts';

export const languageOf = (req: Headed & { query: { lang?: string } }): string =>
  answerLanguage(req.query.lang, req.headers['accept-language']);

export const languageHeaders = (language: string, catalogue: Pick<Catalogue, 'languages'>): Record<string, string> => ({
  'content-language': contentLanguage(language, catalogue.languages),
  vary: 'accept-language',
});

/** The query a link to an answer in `language` carries: none for English (every route's default), else `?lang=`. */
export const languageQuery = (language: string): string => (language === DEFAULT_LANGUAGE ? '' : `?lang=${language}`);

/** A card as answers show it: its name in the language, without its names by language. */
export function localCard(card: Card, language: string): Omit<Card, 'names' | 'reserved'> {
  // The card as the contract's card model shows it (§1): its Reserve-pool mark is legality's to report (§11.5).
  const { names: _names, reserved: _reserved, ...shown } = card;
  return { ...shown, name: cardName(card, language) };
}
