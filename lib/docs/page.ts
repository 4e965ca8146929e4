/**
 * GET /api/v1/docs and GET /api/v1/docs/{asset} (contract §8.4): an interactive reference (Scalar)
 * rendered from the served OpenAPI document, its script served by the API itself — no third-party
 * host (no web fonts, no proxy: "try it" calls this API directly, the document's server being "/").
 * The only answers that are not JSON; errors on these paths keep the envelope.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { validators } from '#http/cache.ts';
import { ApiError } from '#http/errors.ts';
import { type ApiRequest, type ApiResult, publicEndpoint } from '#http/types.ts';
import { routeByName } from '#routes';

/** Scalar's self-contained browser build (the route's `files`): beside the bundle in Lambda, else in the project. */
const SCALAR_FILE = routeByName('docsAsset').files?.[0] as string;
export const SCALAR_ASSET = 'scalar.js';

const scalarPath = () =>
  process.env.LAMBDA_TASK_ROOT
    ? join(process.env.LAMBDA_TASK_ROOT, basename(SCALAR_FILE))
    : new URL(`../../${SCALAR_FILE}`, import.meta.url);

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
<script>Scalar.createApiReference('#app', ${JSON.stringify(CONFIGURATION)});</script>
</body>
</html>
`;

/** A text answer that changes only with a deployment: a strong ETag, and 304 on If-None-Match. */
function asset(req: ApiRequest<unknown>, contentType: string, body: string): ApiResult {
  const { headers, notModified } = validators(req, body, 'public, max-age=300, stale-while-revalidate=86400');
  return notModified ? { status: 304, data: undefined, headers } : { data: undefined, headers, raw: { contentType, body } };
}

export const readDocsPage = publicEndpoint({}, async (req) => asset(req, 'text/html; charset=utf-8', PAGE));

let scalar: string | undefined;
export const readDocsAsset = publicEndpoint({}, async (req) => {
  if (req.params.asset !== SCALAR_ASSET) throw new ApiError(404, 'not_found', 'no such asset of the docs page');
  scalar ??= readFileSync(scalarPath(), 'utf8');
  return asset(req, 'text/javascript; charset=utf-8', scalar);
});
