/**
 * The bulk files' bucket (contract §12.2): a file streamed into it as a multipart upload — S3 API Reference,
 * CreateMultipartUpload, UploadPart (every part but the last at least 5 MiB), CompleteMultipartUpload (whose 200
 * may still carry an error in its body), AbortMultipartUpload on a failure — so no step holds the file whole: a
 * part at a time is in memory; the upload completes only where no object has its key (If-None-Match). Signed with Signature Version 4 by aws4fetch (as catalogue-read.ts signs DynamoDB's
 * requests), with the function's credentials from its environment, as Lambda sets them, rather than the S3 client
 * and its upload helper (several hundred KB of bundle for four requests); aws4fetch retries a 5xx or a 429 with
 * backoff. BULK_BUCKET names the bucket; S3_ENDPOINT points the requests at a local stand-in (path-style:
 * infra/local/objects.ts), else they go to the bucket's own virtual-hosted URL. A link to an object for a reader
 * without the edge: presigned (GET, an hour), or the stand-in's own URL.
 */
import { createHash } from 'node:crypto';
import type { AwsClient } from 'aws4fetch';
import { signer } from './signer.ts';

/** A part's size: S3 takes parts of 5 MiB to 5 GiB (but the last); 8 MiB keeps a 1 GB file under 130 parts (at most 10,000). */
export const PART_BYTES = 8 * 1024 * 1024;
/** How long a presigned link lasts (seconds): longer than the listing that gives it is kept anywhere. */
export const PRESIGNED_SECONDS = 3600;

/** The bulk files' bucket could not be reached (refused, reset, no answer): named, so that an operator is told which store failed. */
export class BucketUnreachable extends Error {
  override readonly name = 'BucketUnreachable';
  constructor(
    readonly endpoint: string,
    cause: unknown,
  ) {
    super(`cannot reach the bulk files' bucket at ${endpoint}`, { cause });
  }
}

/**
 * How long one call to the bucket may take before it is given up as unreachable (ms; S3_TIMEOUT_MS, for a test's
 * stalled stand-in): a part is 8 MiB, seconds at most from a function; a bucket that never answers is named, not
 * waited on for ever.
 */
const callMs = () => Number(process.env.S3_TIMEOUT_MS) || 60_000;

function bucket(): { client: Pick<AwsClient, 'fetch' | 'sign'>; url: (key: string) => string; local: boolean } {
  const env = process.env;
  const name = env.BULK_BUCKET;
  if (!name) throw new Error('no BULK_BUCKET: the bucket of the bulk files is not set');
  const local = env.S3_ENDPOINT;
  if (local && !URL.canParse(local))
    throw new Error(`S3_ENDPOINT is not a URL: ${local} (the bulk files' bucket's, e.g. http://127.0.0.1:4569)`);
  const { client, region } = signer('s3', local, 'reach the bulk files');
  const path = (key: string) => key.split('/').map(encodeURIComponent).join('/');
  const url = (key: string) => (local ? `${local}/${name}/${path(key)}` : `https://${name}.s3.${region}.amazonaws.com/${path(key)}`);
  return {
    client: {
      // A failure to reach the bucket at all is the bucket's, said so (not the table's store's).
      fetch: (input, init) =>
        client.fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(callMs()) }).catch((e: unknown) => {
          throw new BucketUnreachable(new URL(String(input instanceof Request ? input.url : input)).origin, e);
        }),
      sign: (input, init) => client.sign(input, init),
    },
    url,
    local: local !== undefined,
  };
}

async function ok(res: Response, what: string): Promise<string> {
  const text = await res.text();
  // CompleteMultipartUpload may answer 200 with an error in its body (S3 API Reference).
  if (!res.ok || text.includes('<Error>')) throw new Error(`S3 ${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** What a file written is: its size in bytes and the SHA-256 of its bytes (hex). */
export interface Written {
  size: number;
  sha256: string;
}

/**
 * Streams `chunks` into the object `key` (never rewritten: each key is a new file), its headers `headers`
 * (Content-Type, Content-Encoding, Cache-Control): what it wrote, measured as it went.
 */
export async function putStreamed(key: string, headers: Record<string, string>, chunks: AsyncIterable<Uint8Array>): Promise<Written> {
  const { client, url } = bucket();
  const target = url(key);
  const created = await ok(await client.fetch(`${target}?uploads`, { method: 'POST', headers }), 'CreateMultipartUpload');
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
  if (!uploadId) throw new Error('S3 CreateMultipartUpload gave no UploadId');
  const at = (query: Record<string, string>) => `${target}?${new URLSearchParams({ ...query, uploadId })}`;
  const hash = createHash('sha256');
  const etags: string[] = [];
  let size = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  const send = async () => {
    const part = Buffer.concat(held);
    held = [];
    heldBytes = 0;
    const res = await client.fetch(at({ partNumber: String(etags.length + 1) }), { method: 'PUT', body: part });
    await ok(res, 'UploadPart');
    etags.push(res.headers.get('etag') ?? '');
  };
  try {
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.byteLength;
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (heldBytes >= PART_BYTES) await send();
    }
    if (heldBytes > 0 || etags.length === 0) await send();
    const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join('');
    // Only if no object has the key (S3 API Reference, CompleteMultipartUpload If-None-Match: `*`; 412 when one has,
    // 409 when another write to it is under way): a key is written once, never rewritten.
    await ok(
      await client.fetch(at({}), {
        method: 'POST',
        headers: { 'if-none-match': '*' },
        body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
      }),
      'CompleteMultipartUpload',
    );
  } catch (e) {
    // The parts uploaded so far are billed as stored until aborted (the bucket's rule aborts what is left after a day).
    await client.fetch(at({}), { method: 'DELETE' }).catch(() => undefined);
    throw e;
  }
  return { size, sha256: hash.digest('hex') };
}

/** A link to the object a reader without the edge can download: presigned for an hour, or the local stand-in's own. */
export async function objectLink(key: string): Promise<string> {
  const { client, url, local } = bucket();
  if (local) return url(key);
  const signed = await client.sign(`${url(key)}?X-Amz-Expires=${PRESIGNED_SECONDS}`, { method: 'GET', aws: { signQuery: true } });
  return signed.url;
}
