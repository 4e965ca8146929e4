/**
 * The bulk files' listing (decks table; contract §12.2): for each type, the newest file the export job wrote
 * (lib/workers/bulk-export.ts), written after the file is whole in the bucket — so the listing never names a
 * file that is not there — and read by `GET /api/v1/bulk-data`:
 *   pk BULK#<type>   sk NEWEST   { key, updated_at, size, sha256, records }
 * Bounds (contract §11.1): one small item a type, whatever the library's size.
 */
import type { BulkType } from '#rules/bulk.ts';
import { itemKind } from './kind.ts';

export const BULK_DATA = itemKind('BULK#');
export const bulkFileKey = (type: BulkType) => ({ pk: BULK_DATA.pk(type), sk: 'NEWEST' }) as const;

/** A file as the listing keeps it: where it is, when it was written, its size, digest and records. */
export interface BulkFileItem {
  type: BulkType;
  key: string;
  updated_at: string;
  size: number;
  sha256: string;
  records: number;
}

export const bulkFileItem = (f: BulkFileItem): Record<string, unknown> => ({ ...bulkFileKey(f.type), ...f });
export function fromBulkFileItem(item: Record<string, unknown>): BulkFileItem {
  const { type, key, updated_at, size, sha256, records } = item as unknown as BulkFileItem;
  return { type, key, updated_at, size, sha256, records };
}
