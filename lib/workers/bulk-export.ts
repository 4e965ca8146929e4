/**
 * The bulk files (contract §12.2): once a day (an EventBridge schedule; `npx deckctl bulk export` on demand), every
 * public deck as a line of gzip NDJSON, and the library's card and faction figures as one gzip JSON document, each
 * to a new key of the bucket that carries its time and its run's mark (lib/rules/bulk.ts: never rewritten; the bucket's lifecycle
 * rule deletes a file after BULK_KEPT_DAYS, so a deck made private, deleted or erased leaves every file within
 * them); then the listing's item of its type (lib/store/bulk-data.ts), so the listing names only whole files.
 * Streamed end to end: the decks come a page at a time from a parallel Scan of the share-slug index (deck items
 * alone: lib/store/decks.ts publicDeckPages), each page's lines go through gzip as they are made, and the gzip's
 * output goes to the bucket a part at a time (lib/store/objects.ts) — at most a page a segment and a part are in
 * memory, whatever the library's size. Its read units are summed from what DynamoDB reports.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { catalogue, catalogueTag } from '#catalogue/load.ts';
import { LIFETIMES } from '#routes/cache-lifetimes.ts';
import { SHARE_ROUTES } from '#routes/share.ts';
import { BULK_FILES, type BulkType, bulkKey, deckLine } from '#rules/bulk.ts';
import { imageQuery } from '#rules/image-sizes.ts';
import { poolsAsked } from '#rules/plays.ts';
import { cardFigures, factionFigures } from '#rules/plays-shown.ts';
import { writeBulkFile } from '#store/bulk-data.ts';
import { publicDeckPages } from '#store/decks.ts';
import type { BulkFileItem } from '#store/items/bulk-data.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { putStreamed } from '#store/objects.ts';
import { readFactions, readPools } from '#store/plays.ts';

/** The Scan's segments read side by side (DynamoDB developer guide, "Parallel scan"). */
export const SEGMENTS = 4;

/**
 * The pages of every source, as each comes: one page a source asked for at a time (so at most that many are held).
 * A source's failure is held as a value until the loop takes it, then thrown: a page asked for while the consumer
 * writes the last one is raced by nothing, and a rejection there would be unhandled (the process's end on Lambda).
 */
export async function* merged<T>(sources: AsyncIterator<T>[]): AsyncGenerator<T> {
  type Next = { i: number; r: IteratorResult<T> } | { i: number; failed: unknown };
  const pending = new Map<number, Promise<Next>>();
  const ask = (i: number) =>
    pending.set(
      i,
      (sources[i] as AsyncIterator<T>).next().then(
        (r) => ({ i, r }),
        (failed: unknown) => ({ i, failed }),
      ),
    );
  for (const i of sources.keys()) ask(i);
  while (pending.size > 0) {
    const next = await Promise.race(pending.values());
    if ('failed' in next) throw next.failed;
    const { i, r } = next;
    if (r.done) pending.delete(i);
    else {
      ask(i);
      yield r.value;
    }
  }
}

/** `write` run into a gzip stream, streamed into the bucket under `type`'s new key: the file as the listing keeps it. */
async function writeFile(
  type: BulkType,
  at: Date,
  run: string,
  write: (line: (text: string) => Promise<void>) => Promise<number>,
): Promise<BulkFileItem> {
  const key = bulkKey(type, at, run);
  const gzip = createGzip();
  // A failure is the upload's or the writer's, reported once by the promise below: the stream's own 'error' is not
  // another (unheard, it would end the process).
  gzip.on('error', () => undefined);
  const line = async (text: string) => {
    if (gzip.destroyed) throw new Error('the upload of the file stopped');
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  const writing = write(line).then(
    (records) => {
      gzip.end();
      return records;
    },
    (e: Error) => {
      gzip.destroy(e);
      throw e;
    },
  );
  const headers = { 'content-type': BULK_FILES[type].contentType, 'content-encoding': 'gzip', 'cache-control': LIFETIMES.bulkFile };
  // An upload that fails stops the writer (its stream destroyed) rather than leaving it to read the library for nothing.
  const uploading = putStreamed(key, headers, gzip).catch((e: unknown) => {
    gzip.destroy(e as Error);
    throw e;
  });
  const [written, records] = await Promise.all([uploading, writing]);
  const file = { type, key, updated_at: at.toISOString(), ...written, records };
  // Listed unless a newer file is listed already (an export that began later and ended first): the listing names
  // the newest whole file, with its own size, digest and records.
  await writeBulkFile(file);
  return file;
}

/** A deck's links as a line carries them: its page, its image and its preview, on `origin`, in English (the image queries made once an export, not once a deck). */
function linksOn(origin: string): (d: StoredDeck) => { page: string; image: string; preview: string } {
  const query = imageQuery('en', catalogueTag());
  return (d) => {
    const image = `${origin}${SHARE_ROUTES.readDeckImage.path.replace('{share_slug}', d.share_slug)}${query}`;
    return { page: `${origin}${SHARE_ROUTES.readSharePage.path.replace('{share_slug}', d.share_slug)}`, image, preview: image };
  };
}

/** Writes both files at `at`, the decks' links on `origin`: each file as listed, and the read units of the decks' Scan. */
export async function exportBulk(asked: Date, origin: string): Promise<{ files: BulkFileItem[]; readUnits: number }> {
  // A key is written once: this run's mark in its keys (two runs in one second write two files), and the bucket
  // asked to refuse a key that exists (If-None-Match: *, lib/store/objects.ts).
  const at = new Date(Math.floor(asked.getTime() / 1000) * 1000);
  const run = randomBytes(4).toString('hex');
  let readUnits = 0;
  const decks = await writeFile('decks', at, run, async (line) => {
    let records = 0;
    const linksOf = linksOn(origin);
    const segments = Array.from({ length: SEGMENTS }, (_, s) => publicDeckPages(s, SEGMENTS, (n) => (readUnits += n)));
    for await (const page of merged(segments))
      for (const deck of page) {
        await line(`${JSON.stringify(deckLine(deck, linksOf(deck)))}\n`);
        records++;
      }
    return records;
  });
  const plays = await writeFile('plays', at, run, async (line) => {
    const [pool, factions] = await Promise.all([readPools(poolsAsked(undefined, undefined)), readFactions()]);
    const cards = cardFigures(pool, catalogue(), 'en');
    await line(
      JSON.stringify({
        decks: pool.decks,
        as_of: pool.as_of,
        cards,
        factions: factionFigures(factions.decks, factions.counts.pairs, factions.tags),
      }),
    );
    return cards.length;
  });
  return { files: [decks, plays], readUnits };
}

/** Where the files' links point (the edge's domain, else the API's), as the stack sets it: PUBLIC_URL. */
export function publicOrigin(): string {
  const url = process.env.PUBLIC_URL;
  if (!url) throw new Error('no PUBLIC_URL: the origin the bulk files link decks on is not set');
  return url.replace(/\/+$/, '');
}

/** The daily run (an EventBridge scheduled event): both files at the event's time. */
export const exportBulkDaily = async (event: { time?: string }) => {
  const { files, readUnits } = await exportBulk(event.time ? new Date(event.time) : new Date(), publicOrigin());
  return { files: files.map((f) => ({ key: f.key, records: f.records, size: f.size })), readUnits };
};
