import { exportBulkDaily } from '#workers/bulk-export.ts';

export const handler = exportBulkDaily;
