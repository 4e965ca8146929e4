/**
 * GET /api/v1/bulk-data — the bulk files' listing (contract §12.2), in Scryfall's bulk-data shape (a list of
 * bulk_data objects; GET /api/v1/bulk-data/{id|type} one of them): each type's newest
 * file (lib/store/bulk-data.ts: one BatchGetItem), its download_uri on the edge's host when the request came through
 * the edge (it says so: X-Forwarded-Host, infra/edge-function.ts), else a link to the bucket's object (presigned,
 * or the local stand-in's own: lib/store/objects.ts).
 */

import { ApiError } from '#http/errors.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { BULK_DATA_ROUTES as R } from '#routes/bulk-data.ts';
import { REFERENCE_ROUTES } from '#routes/reference.ts';
import { BULK_FILES } from '#rules/bulk.ts';
import { API_VERSION } from '#shapes/envelope-constants.ts';
import { readBulkFileOf, readBulkFiles } from '#store/bulk-data.ts';
import { documentClient } from '#store/client.ts';
import type { BulkFileItem } from '#store/items/bulk-data.ts';
import { objectLink } from '#store/objects.ts';

/** Where the document names a record's schema: its component (lib/shapes/named.ts). */
const SCHEMA_PATH = `${REFERENCE_ROUTES.openApi.path}#/components/schemas/`;

/** A listed file as the listing shows it (Scryfall's bulk_data object, and ours). */
async function entryOf(f: BulkFileItem, req: Parameters<typeof originOf>[0] & { headers: Record<string, string | undefined> }) {
  const origin = originOf(req);
  const edge = req.headers['x-forwarded-host'] !== undefined;
  const about = BULK_FILES[f.type];
  return {
    object: 'bulk_data' as const,
    id: about.id,
    uri: `${origin}${R.readBulkFile.path.replace('{bulk_id}', about.id)}`,
    type: f.type,
    name: about.name,
    description: about.description,
    updated_at: f.updated_at,
    download_uri: edge ? `${origin}/${f.key}` : await objectLink(f.key),
    size: f.size,
    content_type: about.contentType,
    content_encoding: 'gzip' as const,
    sha256: f.sha256,
    records: f.records,
    schema: `${origin}${SCHEMA_PATH}${about.schema}`,
  };
}

export const readBulkData = endpoint(R.readBulkData, { init: [documentClient] }, async (req) => {
  const data = await Promise.all((await readBulkFiles()).map((f) => entryOf(f, req)));
  return { data: { object: 'list' as const, has_more: false as const, data, meta: { api_version: API_VERSION } }, bare: true };
});

export const readBulkFile = endpoint(R.readBulkFile, { init: [documentClient] }, async (req) => {
  const file = await readBulkFileOf(req.params.bulk_id);
  if (!file) throw new ApiError(404, 'not_found', 'no such bulk file: it has not been exported yet');
  return { data: { ...(await entryOf(file, req)), meta: { api_version: API_VERSION } }, bare: true };
});
