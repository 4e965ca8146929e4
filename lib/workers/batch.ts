/**
 * What every stream worker does with a batch (DynamoDB Streams; in AWS a Lambda event source mapping,
 * locally infra/local/streams.ts): its records grouped by item (records of one item come in order, and a
 * batch's records of one item are taken together), the work each group asks for run a few at a time, and
 * the first record whose work did not finish reported (partial batch response), so that the batch is
 * retried from there — and only from there — until it succeeds (contract §9.1).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#http/logger.ts';
import { atMost } from '#store/at-most.ts';

export type Image = Record<string, unknown>;
export const image = (raw: Record<string, unknown> | undefined): Image | undefined =>
  raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined;
/** A run's changes, each its old and new image, in order. */
export const changesOf = (run: readonly DynamoDBRecord[]): [Image | undefined, Image | undefined][] =>
  run.map((r) => [image(r.dynamodb?.OldImage as Record<string, unknown>), image(r.dynamodb?.NewImage as Record<string, unknown>)]);

/** One piece of work, and the first record of the batch it came from (where a retry must start). */
export interface Work {
  first: string;
  run: () => Promise<void>;
}

/** Pieces of work run at once (each bounds its own writes): a batch never floods the store. */
export const WORK_AT_ONCE = 4;

/** A batch's records by item (its keys), in record order. */
export function itemRunsOf(records: readonly DynamoDBRecord[]): { keys: Image; sequence: string; run: DynamoDBRecord[] }[] {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const r of records) {
    const keys = image(r.dynamodb?.Keys as Record<string, unknown>) ?? {};
    const id = `${keys.pk}\u0000${keys.sk}`;
    byItem.set(id, [...(byItem.get(id) ?? []), r]);
  }
  return [...byItem.values()].map((run) => {
    const first = run[0] as DynamoDBRecord;
    return { keys: image(first.dynamodb?.Keys as Record<string, unknown>) ?? {}, sequence: first.dynamodb?.SequenceNumber ?? '', run };
  });
}

/** A stream worker's handler: runs a batch's work and names the first record whose work did not finish. */
export const batchHandler =
  (name: string, workOf: (records: readonly DynamoDBRecord[]) => Work[]) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const failed: string[] = [];
    await atMost(WORK_AT_ONCE, workOf(event.Records ?? []), async (work) => {
      try {
        await work.run();
      } catch (error) {
        logger.warn(`${name}: change not handled; retried from its record`, { error: error as Error, sequence: work.first });
        failed.push(work.first);
      }
    });
    const earliest = failed.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))[0];
    return { batchItemFailures: earliest ? [{ itemIdentifier: earliest }] : [] };
  };
