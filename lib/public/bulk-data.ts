/**
 * GET /api/v1/bulk-data — the bulk files' listing (contract §12.2), in Scryfall's bulk-data shape: each type's newest
 * file (lib/store/bulk-data.ts: one BatchGetItem), its download_uri on the edge's host when the request came through
 * the edge (it says so: X-Forwarded-Host, infra/edge-function.ts), else a link to the bucket's object (presigned,
 * or the local stand-in's own: lib/store/objects.ts).
 */

import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import * as R from '#routes/bulk-data.ts';
import { openApi } from '#routes/reference.ts';
import { BULK_FILES } from '#rules/bulk.ts';
import { readBulkFiles } from '#store/bulk-data.ts';
import { documentClient } from '#store/client.ts';
import { objectLink } from '#store/objects.ts';

/** Where the document names a record's schema: its component (lib/shapes/named.ts). */
const SCHEMA_PATH = `${openApi.path}#/components/schemas/`;

export const readBulkData = endpoint(R.readBulkData, { init: [documentClient] }, async (req) => {
  const origin = originOf(req);
  const edge = req.headers['x-forwarded-host'] !== undefined;
  const files = await readBulkFiles();
  const data = await Promise.all(
    files.map(async (f) => ({
      type: f.type,
      name: BULK_FILES[f.type].name,
      description: BULK_FILES[f.type].description,
      updated_at: f.updated_at,
      download_uri: edge ? `${origin}/${f.key}` : await objectLink(f.key),
      size: f.size,
      content_type: BULK_FILES[f.type].contentType,
      content_encoding: 'gzip' as const,
      sha256: f.sha256,
      records: f.records,
      schema: `${origin}${SCHEMA_PATH}${BULK_FILES[f.type].schema}`,
    })),
  );
  return { data };
});
