/** A permanent redirect (308: the method and body kept), the query kept; cached a day (it changes with no deployment). */
import { LIFETIMES } from '#routes/cache-lifetimes.ts';
import { invalidParameter } from './errors.ts';
import type { Raw } from './types.ts';

/**
 * The longest Location a redirect sends: an HTTP API takes a request line and headers of 10,240 bytes together at most
 * (API Gateway developer guide, "Quotas for configuring and running an HTTP API"), so a longer one could never be
 * followed there; and a Location past a client's header limit (Node's: 16 KB) fails the client outright.
 */
export const MAX_LOCATION_BYTES = 8_192;

export function moved(to: string, rawQuery: string): Raw {
  const location = `${to}${rawQuery ? `?${rawQuery}` : ''}`;
  if (Buffer.byteLength(location) > MAX_LOCATION_BYTES)
    throw invalidParameter(
      `the query is too long to keep in a redirect to the canonical URL (at most ${MAX_LOCATION_BYTES} bytes with the path)`,
    );
  return {
    status: 308,
    data: undefined,
    headers: { location, 'cache-control': LIFETIMES.redirect },
    raw: { contentType: 'text/plain; charset=utf-8', body: `Moved to ${to}\n` },
  };
}
