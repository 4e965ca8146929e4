/** The DynamoDB client's body collector (store/client.ts): a Node stream's bytes, or an error when it ends early. */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectBody } from '#store/sdk-config.ts';

describe('collectBody', () => {
  it("a stream's chunks, in order, as bytes", async () => {
    const bytes = await collectBody(Readable.from([Buffer.from('{"Item":'), Buffer.from('{"pk":{"S":"a"}}'), Buffer.from('}')]));
    expect(Buffer.from(bytes).toString('utf8')).toBe('{"Item":{"pk":{"S":"a"}}}');
  });

  it('bytes already in hand, as they are; an empty body, empty', async () => {
    const given = new Uint8Array([1, 2, 3]);
    expect(await collectBody(given)).toBe(given);
    expect((await collectBody(Readable.from([]))).length).toBe(0);
  });

  it('a body that closes before its end, or fails, is an error', async () => {
    const cut = new PassThrough();
    const collected = collectBody(cut);
    cut.write('{"Item":{"pk"');
    cut.destroy();
    await expect(collected).rejects.toThrow(/ended early/);
    const failing = new PassThrough();
    const failed = collectBody(failing);
    failing.destroy(new Error('socket hang up'));
    await expect(failed).rejects.toThrow('socket hang up');
  });

  it('a body destroyed before it is read (its close already emitted) is an error at once, not a wait for ever (issue 55)', async () => {
    const timedOut = new PassThrough();
    timedOut.write('{"Items":[');
    timedOut.destroy(Object.assign(new Error('a request has exceeded the configured 2500 ms requestTimeout.'), { name: 'TimeoutError' }));
    timedOut.on('error', () => {});
    await new Promise((r) => setImmediate(r));
    expect(timedOut.destroyed).toBe(true);
    await expect(collectBody(timedOut)).rejects.toThrow(/requestTimeout/);
    const reset = new PassThrough();
    reset.destroy();
    await new Promise((r) => setImmediate(r));
    await expect(collectBody(reset)).rejects.toThrow(/ended early/);
  });

  it('a body that goes silent mid-way is a TimeoutError after the bound, and is destroyed; one that keeps coming is read whole', async () => {
    const stalled = new PassThrough();
    const collected = collectBody(stalled, 200);
    stalled.write('{"Items":[');
    const t = Date.now();
    await expect(collected).rejects.toMatchObject({ name: 'TimeoutError', message: /silent for 200 ms/ });
    expect(Date.now() - t).toBeGreaterThanOrEqual(190);
    expect(stalled.destroyed).toBe(true);
    // Chunks 100 ms apart for 600 ms: never silent for 200 ms, so read whole.
    const slow = new PassThrough();
    const read = collectBody(slow, 200);
    for (const piece of ['{"Items"', ':[', '1,', '2,', '3', ']}']) {
      slow.write(piece);
      await new Promise((r) => setTimeout(r, 100));
    }
    slow.end();
    expect(Buffer.from(await read).toString('utf8')).toBe('{"Items":[1,2,3]}');
    // An error on a body already read reaches a listener (not an uncaught exception).
    slow.destroy(new Error('late'));
    await new Promise((r) => setImmediate(r));
  });
});
