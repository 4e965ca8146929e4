/**
 * GET /api/v1/cards and /api/v1/cards/:card_id — the catalogue, cacheable: it changes only with a
 * deployment, so answers carry Cache-Control and an ETag, and If-None-Match gets a 304.
 */
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { openCursor, queryDigest, signCursor } from '#http/cursor.ts';
import { ApiError, invalidParameter } from '#http/errors.ts';
import { limitParam, oneOf, pageParam, textParam } from '#http/query.ts';
import type { Endpoint } from '#http/types.ts';
import { CARD_TYPES, type Card, RARITIES } from '#rules/card.ts';
import { FACTION_IDS } from '#rules/factions.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
export const listCards: Endpoint = async (req) => {
  const faction = oneOf(req, 'faction', [...FACTION_IDS, 'neutral']);
  const type = oneOf(req, 'type', CARD_TYPES);
  const rarity = oneOf(req, 'rarity', RARITIES);
  const derived = oneOf(req, 'derived', ['true', 'false'] as const);
  const q = textParam(req, 'q', 100);
  const limit = limitParam(req, DEFAULT_LIMIT, MAX_LIMIT);
  const digest = queryDigest([faction, type, rarity, derived, q, String(limit)]);
  let page = pageParam(req);
  if (req.query.cursor !== undefined) {
    const c = openCursor(req.query.cursor) as { d?: string; p?: number };
    if (c?.d !== digest || !Number.isInteger(c.p)) throw invalidParameter('cursor belongs to another query');
    page = c.p as number;
  }
  const match = (c: Card) =>
    (!faction || c.faction === faction) &&
    (!type || c.type === type) &&
    (!rarity || c.rarity === rarity) &&
    (!derived || String(c.derived) === derived) &&
    (!q || c.name.toLowerCase().includes(q));
  const all = catalogue().cards.filter(match);
  const items = all.slice((page - 1) * limit, page * limit);
  const more = page * limit < all.length;
  return cacheable(req, items, {
    page,
    limit,
    total: all.length,
    has_more: more,
    next_cursor: more ? signCursor({ d: digest, p: page + 1 }) : null,
  });
};

export const readCard: Endpoint = async (req) => {
  const card = catalogue().get(req.params.card_id ?? '');
  if (!card) throw new ApiError(404, 'card_not_found', 'no such card in the catalogue');
  return cacheable(req, card);
};
