/** Answers that change only with a deployment: Cache-Control, a strong ETag, and 304 on If-None-Match. */
import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResult } from './types.ts';

const CACHE = 'public, max-age=300, stale-while-revalidate=3600';

export function cacheable(req: ApiRequest<unknown>, data: unknown, meta?: Record<string, unknown>): ApiResult {
  const tag = `"${createHash('sha256').update(JSON.stringify({ data, meta })).digest('base64url').slice(0, 27)}"`;
  const headers = { etag: tag, 'cache-control': CACHE };
  const held = req.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (held?.includes(tag) || held?.includes('*')) return { status: 304, data: undefined, headers };
  return { data, meta, headers };
}
