/**
 * GET /api/v1/docs and GET /api/v1/docs/{asset} (contract §8.4): an interactive reference (Scalar)
 * rendered from the served OpenAPI document, its scripts served by the API itself — no third-party
 * host (no web fonts, no proxy: "try it" calls this API directly, the document's server being "/").
 * The page sends a Content-Security-Policy that runs only this API's own scripts and the page's two
 * inline scripts (by their hashes: no 'unsafe-inline' script), and forbids framing it. Scalar ships as
 * ES modules — an entry (0.7 MB) and the chunks it imports (the largest 0.9 MB) — so that no answer
 * comes near Lambda's 6 MB (its one-file build is 4.4 MB, 5.8 MB in base64: contract §10.4). The page's
 * import map serves the chunks from beside the entry. Each is sent compressed — Brotli or gzip, as the
 * request's Accept-Encoding allows — from files compressed when the function is built (infra:
 * ServiceFunction), or, where there are none (the local runtime), compressed once at its first request.
 * The only answers that are not JSON; errors on these paths keep the envelope.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validators } from '#http/cache.ts';
import { ApiError } from '#http/errors.ts';
import { type ApiResult, endpoint, type Headed } from '#http/types.ts';
import { LIFETIMES } from '#routes/cache-lifetimes.ts';
import { REFERENCE_ROUTES as R } from '#routes/reference.ts';
import { shippedPath } from '#shipped';
import { compressed, ENCODINGS, type Encoding, preferred } from './encoding.ts';

/** Scalar's browser build (the route's `files`): its entry and its chunks' folder, beside the bundle in Lambda, else in the project. */
const [ENTRY_FILE, CHUNKS] = R.docsAsset.files;
export const SCALAR_ASSET = 'scalar.js';
const ASSETS = '/api/v1/docs/';

/** The file of an asset the page may ask for, or undefined: the entry, or a chunk the build holds (by its name, never a path). */
let chunks: Set<string> | undefined;
function assetFile(name: string): string | undefined {
  if (name === SCALAR_ASSET) return shippedPath(ENTRY_FILE);
  chunks ??= new Set(readdirSync(shippedPath(CHUNKS)).filter((file) => file.endsWith('.js')));
  return chunks.has(name) ? join(shippedPath(CHUNKS), name) : undefined;
}

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

/** The entry imports `./chunks/<name>`: the page maps that folder onto the assets' own path (one route, one segment). */
const IMPORTS = JSON.stringify({ imports: { [`${ASSETS}chunks/`]: ASSETS } });
const START = `import { createApiReference } from '${ASSETS}${SCALAR_ASSET}';\ncreateApiReference('#app', ${JSON.stringify(CONFIGURATION)});`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const HTML = `<!doctype html>
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
<script type="importmap">${IMPORTS}</script>
<script type="module">${START}</script>
</body>
</html>
`;

/**
 * What the page may do: scripts only from this API and the two inline scripts above (their SHA-256), styles
 * from this API and inline (Scalar sets its own), data: images and fonts, calls to this API ("try it"),
 * never framed, no plugins, no base or form elsewhere.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' ${sha256(IMPORTS)} ${sha256(START)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

/** A text answer that changes only with a deployment: a strong ETag, and 304 on If-None-Match. */
function page(req: Headed, contentType: string, body: string, extra: Record<string, string>): ApiResult<undefined> {
  const { headers, notModified } = validators(req, body);
  const all = { ...headers, ...extra };
  return notModified ? { status: 304, data: undefined, headers: all } : { data: undefined, headers: all, raw: { contentType, body } };
}

export const readDocsPage = endpoint(R.docsPage, {}, async (req) =>
  page(req, 'text/html; charset=utf-8', HTML, { 'content-security-policy': DOCS_CSP, 'x-frame-options': 'DENY' }),
);

/** A chunk's name holds a hash of its content: it never changes under that name. */

/** An asset as it is and in each encoding: precompressed files beside it when there are, else compressed now (once). */
const variants = new Map<string, Buffer>();
function asset(file: string, encoding: Encoding | 'identity'): Buffer {
  const key = `${encoding}:${file}`;
  let body = variants.get(key);
  if (!body) {
    const compressedFile = encoding === 'identity' ? file : `${file}${ENCODINGS[encoding]}`;
    body = existsSync(compressedFile) ? readFileSync(compressedFile) : compressed(asset(file, 'identity'), encoding as Encoding);
    variants.set(key, body);
  }
  return body;
}
const digests = new Map<string, string>();
function digestOf(file: string): string {
  let digest = digests.get(file);
  if (!digest) {
    digest = createHash('sha256').update(asset(file, 'identity')).digest('base64');
    digests.set(file, digest);
  }
  return digest;
}

export const readDocsAsset = endpoint(R.docsAsset, {}, async (req) => {
  const file = assetFile(req.params.asset);
  if (!file) throw new ApiError(404, 'not_found', 'no such asset of the docs page');
  const encoding = preferred(req.headers['accept-encoding']);
  const body = asset(file, encoding ?? 'identity');
  // One ETag per representation: a cache never answers one encoding with another.
  const { headers, notModified } = validators(
    req,
    `${encoding ?? 'identity'}:${digestOf(file)}`,
    // The reference's script is named, not hashed: revalidated as the page is; the others, its build's, the route's.
    req.params.asset === SCALAR_ASSET ? LIFETIMES.docsPage : undefined,
  );
  const all = { ...headers, vary: 'accept-encoding', ...(encoding ? { 'content-encoding': encoding } : {}) };
  return notModified
    ? { status: 304, data: undefined, headers: all }
    : { data: undefined, headers: all, raw: { contentType: 'text/javascript; charset=utf-8', body } };
});
