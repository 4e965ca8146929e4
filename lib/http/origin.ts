import type { Headed } from './types.ts';

/**
 * The origin the request came to, for the absolute URLs an answer gives (a page's links, a code's):
 * its Host, over HTTPS (API Gateway serves only HTTPS) unless the request says otherwise in
 * X-Forwarded-Proto (the local runtime: http).
 */
export function originOf(req: Headed): string {
  const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'http' ? 'http' : 'https';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}
