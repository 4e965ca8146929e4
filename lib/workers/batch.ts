/**
 * What every stream worker does with a batch (DynamoDB Streams; in AWS a Lambda event source mapping,
 * locally infra/local/streams.ts): its records grouped by item (records of one item come in order, and a
 * batch's records of one item are taken together), the work each group asks for run a few at a time, and
 * the first record whose work did not finish reported (partial batch response), so that the batch is
 * retried from there — and only from there — until it succeeds (contract §9.1). One item's failing work
 * holds up no other item's work of the batch. No piece of work starts with less than its worker's
 * `workMs` left before the function's timeout: it is left for the retry (resumed from its record), so a
 * batch never runs into its timeout half-done. Work that fails for good (faults.ts `isPermanent`) holds
 * nothing up: tried part by part when it has parts (a batch's figures, deck by deck), and what still fails
 * is given up on — named in the log and the discarded-changes queue (discard.ts) — and the batch goes on.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#logger';
import { atMost } from '#store/at-most.ts';
import { isPermanent } from '#store/faults.ts';
import { discard } from './discard.ts';

export type Image = Record<string, unknown>;
export const image = (raw: Record<string, unknown> | undefined): Image | undefined =>
  raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined;
/** An item's changes (its records of a batch), each its old and new image, in order. */
export const changesOf = (records: readonly DynamoDBRecord[]): [Image | undefined, Image | undefined][] =>
  records.map((r) => [image(r.dynamodb?.OldImage as Record<string, unknown>), image(r.dynamodb?.NewImage as Record<string, unknown>)]);

/** One piece of work, and the first record of the batch it came from (where a retry must start). */
export interface Work {
  first: string;
  /** The item it is for (its keys), as the log and the discarded-changes queue name it. */
  what: string;
  run: () => Promise<void>;
  /** Its parts, each its own work: tried one by one when the whole fails for good, so that only what cannot be applied is given up on. */
  parts?: () => Work[];
  /** It closes the batch: run once every other piece has (what they did is its input). */
  closing?: boolean;
}

/** An item's keys as work names them. */
export const itemName = (keys: Image): string => `${keys.pk} ${keys.sk}`;

/**
 * The work of each item's records (`of`); an item whose work cannot even be worked out (its images
 * fail the program) is work that fails with that error, given up on by its record like any other.
 */
export function workByItem(records: readonly DynamoDBRecord[], of: (item: ItemRecords) => Work[]): Work[] {
  return recordsByItem(records).flatMap((item) => {
    try {
      return of(item);
    } catch (error) {
      return [{ first: item.sequence, what: itemName(item.keys), run: () => Promise.reject(error) }];
    }
  });
}

/** The earliest of stream sequence numbers (decimal strings of any length): where a retry must start. */
export const earliestOf = (sequences: readonly string[]): string | undefined =>
  [...sequences].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))[0];

/** Pieces of work run at once (each bounds its own writes): a batch never floods the store. */
export const WORK_AT_ONCE = 4;

/** An item's records of a batch: its keys, its first record's sequence number, the records in order. */
export interface ItemRecords {
  keys: Image;
  sequence: string;
  records: DynamoDBRecord[];
}

/** A batch's records by item (its keys), in record order. */
export function recordsByItem(records: readonly DynamoDBRecord[]): ItemRecords[] {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const r of records) {
    const keys = image(r.dynamodb?.Keys as Record<string, unknown>) ?? {};
    const id = `${keys.pk}\u0000${keys.sk}`;
    byItem.set(id, [...(byItem.get(id) ?? []), r]);
  }
  return [...byItem.values()].map((records) => {
    const first = records[0] as DynamoDBRecord;
    return { keys: image(first.dynamodb?.Keys as Record<string, unknown>) ?? {}, sequence: first.dynamodb?.SequenceNumber ?? '', records };
  });
}

/** The most one piece of a worker's work takes, unless it says otherwise (a few store calls, each bounded). */
export const WORK_MS = 3_000;

/**
 * A stream worker's handler: runs a batch's work and names the first record whose work did not finish —
 * failed, or not started for want of `workMs` before the timeout.
 */
export const batchHandler =
  (name: string, workOf: (records: readonly DynamoDBRecord[]) => Work[], workMs = WORK_MS) =>
  async (event: DynamoDBStreamEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<DynamoDBBatchResponse> => {
    const failed: string[] = [];
    let left = 0;
    const attempt = async (work: Work): Promise<void> => {
      try {
        await work.run();
      } catch (error) {
        if (!isPermanent(error)) {
          logger.warn(`${name}: change not handled; retried from its record`, {
            error: error as Error,
            sequence: work.first,
            item: work.what,
          });
          failed.push(work.first);
        } else if (work.parts) for (const part of work.parts()) await attempt(part);
        else
          await discard(name, work, error).catch((lost: unknown) => {
            logger.error(`${name}: the discarded-changes queue did not take a change; retried from its record`, { error: lost as Error });
            failed.push(work.first);
          });
      }
    };
    const run = async (work: Work) => {
      if (context && context.getRemainingTimeInMillis() < workMs) {
        left++;
        failed.push(work.first);
        return;
      }
      await attempt(work);
    };
    const works = workOf(event.Records ?? []);
    await atMost(
      WORK_AT_ONCE,
      works.filter((w) => !w.closing),
      run,
    );
    for (const work of works.filter((w) => w.closing)) await run(work);
    if (left > 0) logger.info(`${name}: work left for the retry, near the timeout`, { left });
    const earliest = earliestOf(failed);
    return { batchItemFailures: earliest ? [{ itemIdentifier: earliest }] : [] };
  };
