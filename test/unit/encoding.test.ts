/** Which encoding an Accept-Encoding allows (RFC 9110 §12.5.3), and the compression round trip. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressed, preferred } from '#docs/encoding.ts';

describe('Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip;q=1', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['', undefined],
    [undefined, undefined],
    ['gzip;q=x', 'gzip'],
  ])('%s → %s', (header, encoding) => {
    expect(preferred(header)).toBe(encoding);
  });

  it('compressed bodies decompress to themselves', () => {
    const body = Buffer.from('Scalar.createApiReference(#app);'.repeat(500));
    expect(brotliDecompressSync(compressed(body, 'br')).equals(body)).toBe(true);
    expect(gunzipSync(compressed(body, 'gzip')).equals(body)).toBe(true);
  });
});
