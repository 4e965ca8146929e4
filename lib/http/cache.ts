/**
 * Answers that change only with a deployment: a strong ETag, and 304 on If-None-Match. Their Cache-Control is their
 * route's declared lifetime (lib/routes/cache-lifetimes.ts), set by the stack; `cacheControl` for an answer whose
 * lifetime is not its route's alone (the docs' assets).
 */
import { createHash } from 'node:crypto';
import type { Fresh, Headed, NotModified } from './types.ts';

/**
 * The validators of content that changes only with a deployment: a strong ETag of `content`, its
 * Cache-Control, and whether the request's If-None-Match already holds it (then the answer is 304).
 */
export function validators(req: Headed, content: string, cacheControl?: string) {
  const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
  const held = req.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return {
    headers: { etag, ...(cacheControl ? { 'cache-control': cacheControl } : {}) },
    notModified: held?.includes(etag) === true || held?.includes('*') === true,
  };
}

/** `extra` headers go with the answer and its 304 alike (Content-Language, Vary). */
export function cacheable<D>(
  req: Headed,
  data: D,
  meta?: Record<string, unknown>,
  extra: Record<string, string> = {},
): Fresh<D> | NotModified {
  const { headers: own, notModified } = validators(req, JSON.stringify({ data, meta }));
  const headers = { ...own, ...extra };
  return notModified ? { status: 304, data: undefined, headers } : { data, meta, headers };
}
