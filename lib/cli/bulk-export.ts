/**
 * `deckctl bulk export [--public-url URL] [--json] [--aws]`: writes the bulk files now (contract §12.2), as the daily
 * job does (lib/workers/bulk-export.ts): every public deck and the library's figures, each to a new file of the
 * bucket, then listed. The bucket: BULK_BUCKET (default `deck-library-bulk`, `npm start`'s) at S3_ENDPOINT, else the
 * local stand-in of `npm start` (127.0.0.1:S3_PORT, default 8001); with --aws, BULK_BUCKET in AWS. The decks' links
 * on --public-url, else PUBLIC_URL, else `npm start`'s API (http://127.0.0.1:3000).
 */
import { parseArgs } from 'node:util';
import { LOCAL_BUCKET, LOCAL_S3_PORT } from '#store/local.ts';
import { exportBulk, publicOrigin } from '#workers/bulk-export.ts';
import { useStore } from './accounts.ts';
import { UsageError } from './usage.ts';

export async function bulkExport(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'public-url': { type: 'string' }, json: { type: 'boolean' }, aws: { type: 'boolean' } },
  });
  useStore(values.aws);
  const env = process.env;
  if (values.aws) {
    if (!env.BULK_BUCKET) throw new UsageError('--aws needs BULK_BUCKET set to the stack output');
    delete env.S3_ENDPOINT;
  } else {
    env.S3_ENDPOINT ||= `http://127.0.0.1:${env.S3_PORT || LOCAL_S3_PORT}`;
    env.BULK_BUCKET ||= LOCAL_BUCKET;
  }
  if (values['public-url']) env.PUBLIC_URL = values['public-url'];
  else if (!values.aws) env.PUBLIC_URL ||= `http://127.0.0.1:${env.PORT || 3000}`;
  const { files, readUnits } = await exportBulk(new Date(), publicOrigin());
  if (values.json) console.log(JSON.stringify({ files, read_units: readUnits }, null, 2));
  else {
    for (const f of files) console.log(`${f.type}: ${f.records} records, ${f.size} bytes, ${f.key} (sha256 ${f.sha256})`);
    console.log(`${readUnits} read units for the decks`);
  }
  return 0;
}
