/**
 * GET /api/v1/docs and GET /api/v1/docs/{asset} (contract §8.4): an interactive reference (Scalar)
 * rendered from the served OpenAPI document, its script served by the API itself — no third-party
 * host (no web fonts, no proxy: "try it" calls this API directly, the document's server being "/").
 * The page sends a Content-Security-Policy that runs only this API's own script and the page's one
 * inline script (by its hash: no 'unsafe-inline' script), and forbids framing it. The script (4.4 MB)
 * is sent compressed — Brotli or gzip, as the request's Accept-Encoding allows — from files compressed
 * when the function is built (infra: ServiceFunction), or, where there are none (the local runtime),
 * compressed once at the first request.
 * The only answers that are not JSON; errors on these paths keep the envelope.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { validators } from '#http/cache.ts';
import { ApiError } from '#http/errors.ts';
import { type ApiResult, endpoint, type Headed } from '#http/types.ts';
import * as R from '#routes/reference.ts';
import { shippedPath } from '#shipped';
import { compressed, ENCODINGS, type Encoding, preferred } from './encoding.ts';

/** Scalar's self-contained browser build (the route's `files`): beside the bundle in Lambda, else in the project. */
const SCALAR_FILE = R.docsAsset.files[0];
export const SCALAR_ASSET = 'scalar.js';

const scalarPath = () => shippedPath(SCALAR_FILE);

const CONFIGURATION = {
  url: '/api/v1/openapi.json',
  // Nothing from another host: system fonts, no proxy, no AI agent, no MCP, no telemetry, no vendor tools.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  defaultOpenAllTags: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
};

const START = `Scalar.createApiReference('#app', ${JSON.stringify(CONFIGURATION)});`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deck Library API</title>
<link rel="icon" href="data:,">
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}</style>
</head>
<body>
<div id="app"></div>
<script src="/api/v1/docs/${SCALAR_ASSET}"></script>
<script>${START}</script>
</body>
</html>
`;

/**
 * What the page may do: scripts only from this API and the one inline script above (its SHA-256), styles
 * from this API and inline (Scalar sets its own), data: images and fonts, calls to this API ("try it"),
 * never framed, no plugins, no base or form elsewhere.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(START).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

const CACHE = 'public, max-age=300, stale-while-revalidate=86400';

/** A text answer that changes only with a deployment: a strong ETag, and 304 on If-None-Match. */
function page(req: Headed, contentType: string, body: string, extra: Record<string, string>): ApiResult<undefined> {
  const { headers, notModified } = validators(req, body, CACHE);
  const all = { ...headers, ...extra };
  return notModified ? { status: 304, data: undefined, headers: all } : { data: undefined, headers: all, raw: { contentType, body } };
}

export const readDocsPage = endpoint(R.docsPage, {}, async (req) =>
  page(req, 'text/html; charset=utf-8', PAGE, { 'content-security-policy': DOCS_CSP, 'x-frame-options': 'DENY' }),
);

/** The script, as it is and in each encoding: precompressed files beside it when there are, else compressed now (once). */
const variants = new Map<Encoding | 'identity', Buffer>();
function scalar(encoding: Encoding | 'identity'): Buffer {
  let body = variants.get(encoding);
  if (!body) {
    const path = scalarPath();
    const file = encoding === 'identity' ? path : `${path}${ENCODINGS[encoding]}`;
    body = existsSync(file) ? readFileSync(file) : compressed(scalar('identity'), encoding as Encoding);
    variants.set(encoding, body);
  }
  return body;
}

export const readDocsAsset = endpoint(R.docsAsset, {}, async (req) => {
  if (req.params.asset !== SCALAR_ASSET) throw new ApiError(404, 'not_found', 'no such asset of the docs page');
  const encoding = preferred(req.headers['accept-encoding']);
  const body = scalar(encoding ?? 'identity');
  // One ETag per representation: a cache never answers one encoding with another.
  const { headers, notModified } = validators(
    req,
    `${encoding ?? 'identity'}:${createHash('sha256').update(scalar('identity')).digest('base64')}`,
    CACHE,
  );
  const all = { ...headers, vary: 'accept-encoding', ...(encoding ? { 'content-encoding': encoding } : {}) };
  return notModified
    ? { status: 304, data: undefined, headers: all }
    : { data: undefined, headers: all, raw: { contentType: 'text/javascript; charset=utf-8', body } };
});
