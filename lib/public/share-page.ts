/**
 * GET /d/:share_slug — the share page of a public or unlisted deck, for people and unfurlers (contract
 * §9.3). It is a view, counted as the JSON read's is (from the access log: lib/workers/
 * VIEW_SUBSCRIPTION). A private, unknown or malformed slug answers the same 404 page.
 */
import { catalogue } from '#catalogue/load.ts';
import { ApiError } from '#http/errors.ts';
import { endpoint, type Headed, type Raw } from '#http/types.ts';
import * as R from '#routes/share.ts';
import { DEFAULT_LANGUAGE } from '#rules/languages.ts';
import { NOT_FOUND_PAGE, SHARE_PAGE_CSP, sharePage } from '#share/page.ts';
import { deckSheet } from '#share/sheet.ts';
import { documentClient } from '#store/client.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { languageHeaders, languageOf } from './language.ts';
import { sharedDeck } from './shared-deck.ts';

const HTML = 'text/html; charset=utf-8';

/**
 * The origin the request came to, for the page's absolute URLs: its Host, over HTTPS (API Gateway
 * serves only HTTPS) unless the request says otherwise in X-Forwarded-Proto (the local runtime: http).
 */
export function originOf(req: Headed): string {
  const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'http' ? 'http' : 'https';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}

const page = (status: 200 | 404, body: string, extra: Record<string, string> = {}): Raw => ({
  status,
  data: undefined,
  headers: { 'content-security-policy': SHARE_PAGE_CSP, 'x-frame-options': 'DENY', 'cache-control': 'no-store', ...extra },
  raw: { contentType: HTML, body },
});

/** A slug no one may see (private, unknown or malformed): the same 404 page. */
const missing = () => page(404, NOT_FOUND_PAGE);

export const readSharePage = endpoint(R.readSharePage, { init: [catalogue, documentClient], missing }, async (req) => {
  let deck: StoredDeck;
  try {
    deck = await sharedDeck(req.params.share_slug);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return missing();
    throw error;
  }
  const origin = originOf(req);
  const slug = deck.share_slug;
  const language = languageOf(req, catalogue());
  // The image in the page's language (its link previews show the names the reader reads).
  const asked = language === DEFAULT_LANGUAGE ? '' : `?lang=${language}`;
  return page(
    200,
    sharePage(deckSheet(deck, catalogue(), language), {
      page: `${origin}/d/${slug}`,
      json: `${origin}/api/v1/decks/${slug}`,
      image: `${origin}/api/v1/decks/${slug}/image.png${asked}`,
    }),
    languageHeaders(language),
  );
});
