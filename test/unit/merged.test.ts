/** The bulk export's merge of its sources' pages (lib/workers/bulk-export.ts): a source's failure is thrown where the loop is, never left unhandled. */
import { describe, expect, it } from 'vitest';
import { merged } from '#workers/bulk-export.ts';

async function* pages(name: string, n: number, failAt?: number) {
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 5));
    if (i === failAt) throw new Error(`${name} failed at page ${i}`);
    yield `${name}${i}`;
  }
}

describe('merged', () => {
  it("every source's pages, each source's in its order", async () => {
    const got: string[] = [];
    for await (const p of merged([pages('a', 3), pages('b', 2)])) got.push(p);
    expect(got.filter((p) => p.startsWith('a'))).toEqual(['a0', 'a1', 'a2']);
    expect(got.filter((p) => p.startsWith('b'))).toEqual(['b0', 'b1']);
  });

  it('a source that fails while the consumer is busy with a page: the loop throws its error, and no rejection is left unhandled', async () => {
    const unhandled: unknown[] = [];
    const seen = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', seen);
    try {
      const got: string[] = [];
      const run = (async () => {
        for await (const p of merged([pages('a', 5), pages('b', 5, 1)])) {
          got.push(p);
          // The consumer's own work (a gzip drain, say) longer than the failing source's next page.
          await new Promise((r) => setTimeout(r, 40));
        }
      })();
      await expect(run).rejects.toThrow('b failed at page 1');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
      expect(got.length).toBeGreaterThan(0);
    } finally {
      process.off('unhandledRejection', seen);
    }
  });
});
