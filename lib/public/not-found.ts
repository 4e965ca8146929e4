/**
 * What no route matches (API Gateway's `$default`). A GET or HEAD of a share route's path (the pages people
 * open and the images link previews show: lib/routes/share.ts, and a code's page and image) with a trailing slash — `/d/{share_slug}/`,
 * as a chat client or a hand-typed link may add — answers 308 to the path without it, query kept (contract
 * §10.4); anything else is 404 not_found in the envelope. Only the share routes' paths are read here: the
 * fallback bundles no other route's declaration.
 */
import { ApiError } from '#http/errors.ts';
import { moved } from '#http/redirect.ts';
import { endpoint } from '#http/types.ts';
import { CODE_ROUTES } from '#routes/codes.ts';
import { FALLBACK_ROUTES as R } from '#routes/fallback.ts';
import { pathMatcher } from '#routes/route.ts';
import { SHARE_ROUTES } from '#routes/share.ts';

const GET_PATHS = [...Object.values(SHARE_ROUTES), CODE_ROUTES.readCodePage, CODE_ROUTES.readCodeImage].map((r) => pathMatcher(r.path));

/** The path a trailing slash was added to, when it is a share route's; else undefined. */
export function withoutTrailingSlash(path: string): string | undefined {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === path || trimmed === '') return undefined;
  return GET_PATHS.some((m) => m.match(trimmed)) ? trimmed : undefined;
}

export const notFound = endpoint(R.notFound, {}, async (req) => {
  const to = ['GET', 'HEAD'].includes(req.method) ? withoutTrailingSlash(req.path) : undefined;
  if (to === undefined) throw new ApiError(404, 'not_found', 'no such route');
  return moved(to, req.rawQuery);
});
