/**
 * GET /api/v1/meta/cards — what a faction's (or a pair's) public decks play (contract §10.3), or an ally's,
 * or the whole library's (§11.5), from the figures the store-change worker keeps (lib/store/plays.ts): one
 * item read (an ally's or the library's: the 4–5 pools they are the sum of), paged in the function (a pool
 * holds at most the cards a pair can play, whatever the library's size); with `distinct=code`, the same pools
 * over distinct codes (a code many decks hold counted once).
 */
import { catalogue } from '#catalogue/load.ts';
import { cursorKeyAtInit, cursorPosition, positionCursor, queryDigest } from '#http/cursor.ts';
import { invalidParameter } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { PLAYS_ROUTES as R } from '#routes/plays.ts';
import { poolsAsked } from '#rules/plays.ts';
import { cardFigures } from '#rules/plays-shown.ts';
import { documentClient } from '#store/client.ts';
import { readPools } from '#store/plays.ts';
import { languageHeaders, languageOf } from './language.ts';

export const readMetaCards = endpoint(R.readMetaCards, { init: [catalogue, documentClient, cursorKeyAtInit] }, async (req) => {
  const { main_faction: main, ally_faction: ally, type, distinct, limit } = req.query;
  if (ally !== undefined && ally === main) throw invalidParameter('ally_faction must differ from main_faction');
  const language = languageOf(req);
  const digest = queryDigest([main, ally, type, distinct, String(limit), language]);
  const from = req.query.cursor === undefined ? 0 : await cursorPosition(req.query.cursor, digest);
  const pool = await readPools(poolsAsked(main, ally, distinct === 'code'));
  const figures = cardFigures(pool, catalogue(), language, type);
  const more = from + limit < figures.length;
  return {
    data: figures.slice(from, from + limit),
    meta: {
      decks: pool.decks,
      as_of: pool.as_of,
      has_more: more,
      next_cursor: more ? await positionCursor(digest, from + limit) : null,
    },
    headers: languageHeaders(language, catalogue()),
  };
});
