/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document (lib/docs/openapi.ts), generated once per
 * process from the route table and the declared shapes. The document itself is the body (no
 * envelope): OpenAPI tools read it as it is.
 */

import { openApiDocument } from '#docs/openapi.ts';
import { cacheable } from '#http/cache.ts';
import { endpoint } from '#http/types.ts';
import { REFERENCE_ROUTES as R } from '#routes/reference.ts';

let document: ReturnType<typeof openApiDocument> | undefined;

export const readOpenApi = endpoint(R.openApi, {}, async (req) => {
  document ??= openApiDocument();
  return { ...cacheable(req, document), bare: true };
});
