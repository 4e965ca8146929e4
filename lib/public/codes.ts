/** The URLs of a code's page and image, in the language asked; and a code's answer (its facts and those two links). */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogueTag } from '#catalogue/load.ts';
import { CODE_PATHS } from '#routes/code-paths.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { codeFacts } from '#rules/code-facts.ts';
import type { Deck } from '#rules/deck-code.ts';
import { imageQuery, languageQuery } from './language.ts';

/** A code's page, image and preview (its image at its default size, an embed's: what link previews and Discord show), absolute, in the language asked (none said for English: the routes' default). */
export function codeLinks(origin: string, canonical: string, language: string) {
  const at = (path: string, query = languageQuery(language)) => `${origin}${path.replace('{code}', canonical)}${query}`;
  const image = at(CODE_PATHS.image, imageQuery(language, catalogueTag()));
  return {
    page: at(CODE_PATHS.page),
    image,
    preview: image,
    json: at(CODE_PATHS.facts),
    similar: at(CODE_PATHS.similar, ''),
    deckPage: `${origin}/d/`,
  };
}

/** A code's answer (GET /api/v1/codes/{code}, and a pasted deck's): its facts in the language asked, and its page and image. */
export function codeAnswer(deck: Deck, canonical: string, origin: string, catalogue: Catalogue, language: string) {
  const { page, image, preview } = codeLinks(origin, canonical, language);
  return { ...codeFacts(deck, catalogue, language, archetypeRules(catalogue)), links: { page, image, preview } };
}
