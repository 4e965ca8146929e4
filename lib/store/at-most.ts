/**
 * Runs `work` on every item of a list or an async stream (a Scan's pages), at most `n` at a time, taking
 * the next item only as a worker frees up: a batch never floods the store, and a stream is read no
 * faster than it is worked. The first error (of the work or of the stream) stops the taking of new items;
 * the running ones finish, and then it is thrown.
 */
export async function atMost<T>(n: number, items: Iterable<T> | AsyncIterable<T>, work: (item: T) => Promise<void>): Promise<void> {
  const source: Iterator<T> | AsyncIterator<T> =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    try {
      while (!failure) {
        const next = await source.next();
        if (next.done || failure) return;
        await work(next.value);
      }
    } catch (error) {
      failure ??= { error };
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  if (failure) throw failure.error;
}
