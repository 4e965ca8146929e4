/** A permanent redirect (308: the method and body kept), the query kept; cached a day (it changes with no deployment). */
import { LIFETIMES } from '#routes/cache-lifetimes.ts';
import type { Raw } from './types.ts';

export const moved = (to: string, rawQuery: string): Raw => ({
  status: 308,
  data: undefined,
  headers: { location: `${to}${rawQuery ? `?${rawQuery}` : ''}`, 'cache-control': LIFETIMES.redirect },
  raw: { contentType: 'text/plain; charset=utf-8', body: `Moved to ${to}\n` },
});
