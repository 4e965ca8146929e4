/**
 * GET /api/v1/cards — the catalogue, filtered and paged; cacheable: it changes only with a deployment,
 * so answers carry Cache-Control and an ETag, and If-None-Match gets a 304 (one card: card.ts).
 */
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { cursorKeyAtInit, cursorPosition, positionCursor, queryDigest } from '#http/cursor.ts';
import { endpoint } from '#http/types.ts';
import { CARD_ROUTES as R } from '#routes/cards.ts';
import { type Card, cardName } from '#rules/card.ts';
import { DEFAULT_LANGUAGE } from '#rules/languages.ts';
import { languageHeaders, languageOf, localCard } from './language.ts';

export const listCards = endpoint(R.listCards, { init: [catalogue, cursorKeyAtInit] }, async (req) => {
  const { faction, type, rarity, derived, q, limit } = req.query;
  const language = languageOf(req);
  // A page's cards depend on the language q matches names in.
  const digest = queryDigest([faction, type, rarity, derived, q, String(limit), ...(language === DEFAULT_LANGUAGE ? [] : [language])]);
  let page = req.query.page;
  if (req.query.cursor !== undefined) page = await cursorPosition(req.query.cursor, digest);
  const match = (c: Card) =>
    (!faction || c.faction === faction) &&
    (!type || c.type === type) &&
    (!rarity || c.rarity === rarity) &&
    (!derived || String(c.derived) === derived) &&
    (!q || cardName(c, language).toLowerCase().includes(q));
  const all = catalogue().cards.filter(match);
  const items = all.slice((page - 1) * limit, page * limit).map((c) => localCard(c, language));
  const more = page * limit < all.length;
  return cacheable(
    req,
    items,
    {
      page,
      limit,
      total: all.length,
      has_more: more,
      next_cursor: more ? await positionCursor(digest, page + 1) : null,
    },
    languageHeaders(language, catalogue()),
  );
});
