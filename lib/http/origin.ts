import type { Headed } from './types.ts';

/** A host name, with its port if any: what may stand in a link the answer prints. */
const HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$/;

/**
 * The origin the request came to, for the absolute URLs an answer gives (a page's links, a code's): the host
 * the reader asked — X-Forwarded-Host when the edge sets it (the distribution's domain, or a custom one:
 * infra/edge-function.ts; the origin request never carries the viewer's Host), else Host — over HTTPS (API
 * Gateway and CloudFront serve only HTTPS) unless the request says otherwise in X-Forwarded-Proto (the
 * local runtime: http). A forwarded host or a Host that is no host name is not used (a direct request to the origin
 * may carry anything in Host).
 */
export function originOf(req: Headed): string {
  const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'http' ? 'http' : 'https';
  const forwarded = req.headers['x-forwarded-host']?.split(',')[0]?.trim();
  const own = req.headers.host?.trim();
  const host = forwarded && HOST.test(forwarded) ? forwarded : own && HOST.test(own) ? own : 'localhost';
  return `${proto}://${host}`;
}
