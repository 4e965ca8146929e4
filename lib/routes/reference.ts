/** Reference: this API's document, and its page for people with the page's script. */

import { LIFETIMES } from './cache-lifetimes.ts';
import { Asset } from './params.ts';
import { type Declared, routes } from './route.ts';

export const REFERENCE_ROUTES = routes({
  openApi: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: '/api/v1/openapi.json',
    grants: [],
    summary: 'This document',
    description: 'The OpenAPI 3.1 document itself, not wrapped in the envelope.',
    tag: 'Reference',
    success: { status: 200, data: 'OpenApiDocument', bare: true, headers: ['ETag', 'Cache-Control'], conditional: true },
  } as const satisfies Declared,
  docsPage: {
    edge: 'cached',
    cache: LIFETIMES.docsPage,
    method: 'GET',
    path: '/api/v1/docs',
    grants: [],
    summary: 'This reference, as a page',
    description: 'An interactive reference rendered from this document; its script is served by the API itself.',
    tag: 'Reference',
    success: {
      status: 200,
      data: 'Text',
      bare: true,
      contentType: 'text/html',
      headers: ['ETag', 'Cache-Control', 'Content-Security-Policy', 'X-Frame-Options'],
      conditional: true,
    },
  } as const satisfies Declared,
  docsAsset: {
    edge: 'cached',
    cache: LIFETIMES.immutable,
    method: 'GET',
    path: '/api/v1/docs/{asset}',
    params: { asset: Asset },
    // Scalar's browser build as ES modules: its entry and the chunks it imports (none over 1 MB; its one-file build is 4.4 MB).
    files: ['node_modules/@scalar/api-reference/dist/browser/standalone.esm.js', 'node_modules/@scalar/api-reference/dist/browser/chunks/'],
    grants: [],
    summary: "The reference page's scripts",
    description:
      'scalar.js, the script of the page, and the modules it imports (named by their content: cached for a year). Compressed (br or gzip) when Accept-Encoding allows; none is over 1 MB as it is.',
    tag: 'Reference',
    success: {
      status: 200,
      data: 'Text',
      bare: true,
      contentType: 'text/javascript',
      headers: ['ETag', 'Cache-Control', 'Vary', 'Content-Encoding'],
      conditional: true,
    },
    errors: ['not_found'],
  } as const satisfies Declared,
});
