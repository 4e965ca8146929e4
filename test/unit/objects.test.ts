/**
 * A link to a bulk file without the edge (lib/store/objects.ts objectLink, contract §12.2): in AWS a presigned GET of
 * the bucket's object (Signature Version 4 in the query, an hour), on the function's credentials from its environment;
 * with S3_ENDPOINT (the local stand-in), the object's own URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { objectLink, PRESIGNED_SECONDS } from '#store/objects.ts';

const kept = { ...process.env };
afterEach(() => {
  for (const k of ['S3_ENDPOINT', 'BULK_BUCKET', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'])
    if (kept[k] === undefined) delete process.env[k];
    else process.env[k] = kept[k];
});

describe('objectLink', () => {
  it("in AWS: the bucket's virtual-hosted URL of the key, presigned for an hour with the function's credentials", async () => {
    delete process.env.S3_ENDPOINT;
    Object.assign(process.env, {
      BULK_BUCKET: 'decklibrary-bulkdata-abc123',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: 'session-token',
    });
    const link = new URL(await objectLink('bulk/decks/decks-20261128T044500Z.ndjson.gz'));
    expect(`${link.origin}${link.pathname}`).toBe(
      'https://decklibrary-bulkdata-abc123.s3.eu-west-1.amazonaws.com/bulk/decks/decks-20261128T044500Z.ndjson.gz',
    );
    const q = link.searchParams;
    expect([q.get('X-Amz-Algorithm'), q.get('X-Amz-Expires'), q.get('X-Amz-Security-Token')]).toEqual([
      'AWS4-HMAC-SHA256',
      String(PRESIGNED_SECONDS),
      'session-token',
    ]);
    expect(q.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(q.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it("with S3_ENDPOINT: the stand-in's own path-style URL, unsigned; no bucket named is an error that says so", async () => {
    Object.assign(process.env, { S3_ENDPOINT: 'http://127.0.0.1:8001', BULK_BUCKET: 'deck-library-bulk' });
    expect(await objectLink('bulk/plays/plays-20261128T044500Z.json.gz')).toBe(
      'http://127.0.0.1:8001/deck-library-bulk/bulk/plays/plays-20261128T044500Z.json.gz',
    );
    delete process.env.BULK_BUCKET;
    await expect(objectLink('bulk/x')).rejects.toThrow(/BULK_BUCKET/);
  });
});
