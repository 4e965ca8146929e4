/**
 * GET /d/:share_slug — the share page of a public or unlisted deck, for people and unfurlers (contract
 * §9.3). It is a view, counted as the JSON read's is (from the access log: lib/workers/
 * VIEW_SUBSCRIPTION). A private, unknown or malformed slug answers the same 404 page. Decks like it are the
 * page's script's to fetch, by the deck's code (cached at the edge by it): nothing of them read per view here.
 */
import { archetypeIn, archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue, catalogueTag } from '#catalogue/load.ts';
import { sharedDeck } from '#decks/shared-deck.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { CODE_PATHS } from '#routes/code-paths.ts';
import { SEARCH_ROUTES } from '#routes/search.ts';
import { SHARE_ROUTES as R } from '#routes/share.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { mainPool } from '#rules/plays.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { NOT_FOUND_PAGE, sharePage } from '#share/page.ts';
import { deckSheet } from '#share/sheet.ts';
import { documentClient } from '#store/client.ts';
import { readPool } from '#store/plays.ts';
import { htmlPage } from './html.ts';
import { imageQuery, languageHeaders, languageOf } from './language.ts';

/** A slug no one may see (private, unknown or malformed): the same 404 page. */
const htmlError = () => htmlPage(404, NOT_FOUND_PAGE);

export const readSharePage = endpoint(R.readSharePage, { init: [catalogue, archetypeRules, documentClient], htmlError }, async (req) => {
  const deck = await sharedDeck(req.params.share_slug);
  // What the library's public decks of its main nation play, for each card's "in N%": one GetItem.
  const played = await readPool(mainPool(deck.main_faction));
  const origin = originOf(req);
  const slug = deck.share_slug;
  const language = languageOf(req);
  // The image in the page's language (its link previews show the names the reader reads), of today's catalogue, at
  // its default size: the one that reads where Discord shows it (contract §12.5, §13.1), for a person and a preview.
  const image = `${origin}/api/v1/decks/${slug}/image.png${imageQuery(language, catalogueTag())}`;
  return htmlPage(
    200,
    sharePage(
      { ...deckSheet(deck, catalogue(), language, played), archetype: archetypeIn(deck.archetype, language)?.name ?? null },
      {
        page: `${origin}/d/${slug}`,
        json: `${origin}/api/v1/decks/${slug}`,
        image,
        preview: image,
        similar: `${origin}${CODE_PATHS.similar.replace('{code}', urlCodeOf(parsedCode(deck.deck_code).deck))}`,
        deckPage: `${origin}/d/`,
        feed: `${origin}${SEARCH_ROUTES.readDeckFeed.path}?main_faction=${deck.main_faction}`,
      },
    ),
    languageHeaders(language, catalogue()),
  );
});
