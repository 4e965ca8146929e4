/** atMost (store/at-most.ts): every item worked, never more than n at once, the first error thrown once the running work ends. */
import { describe, expect, it } from 'vitest';
import { atMost } from '#store/at-most.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('atMost', () => {
  it.each([
    ['a list', (xs: number[]) => xs],
    [
      'an async stream',
      (xs: number[]) =>
        (async function* () {
          for (const x of xs) yield x;
        })(),
    ],
  ])('%s: each item once, at most n running', async (_, source) => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await atMost(4, source(items), async (x) => {
      most = Math.max(most, ++running);
      await tick();
      done.push(x);
      running--;
    });
    expect(done.sort((a, b) => a - b)).toEqual(items);
    expect(most).toBe(4);
  });

  it('the first error stops new items; the running ones finish before it is thrown', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = atMost(
      3,
      Array.from({ length: 20 }, (_, i) => i),
      async (x) => {
        started.push(x);
        await tick();
        if (x === 4) throw new Error('store down');
        finished++;
      },
    );
    await expect(run).rejects.toThrow('store down');
    expect(started.length).toBeLessThan(20);
    expect(finished).toBe(started.length - 1);
  });

  it("a stream's own error is thrown", async () => {
    const failing = (async function* () {
      yield 1;
      throw new Error('scan failed');
    })();
    await expect(atMost(2, failing, async () => void (await tick()))).rejects.toThrow('scan failed');
  });
});
