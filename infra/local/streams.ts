/**
 * A local stand-in for Lambda's DynamoDB event source mapping: polls a table's change stream (DynamoDB
 * Local keeps one as DynamoDB does), keeps the records a worker's filters match (lib/workers/), and
 * hands them to the worker in batches — gathered for its batching window, shard by shard, in order, a parent shard before its children —
 * as AWS does: a batch that throws is retried whole; one that reports failed records (partial batch
 * response) is retried from the earliest of them; it moves on once the batch succeeds — or once its oldest
 * record is older than the worker's record age, or its retries are spent (the mapping's
 * MaximumRecordAgeInSeconds and MaximumRetryAttempts): then what is left of the batch is given up on, a
 * message of the shape Lambda sends its on-failure destination (the shard and the sequence range, not the
 * records) is recorded (`onFailure`: the local discarded-changes queue), and the shard goes on. Where it got
 * to is kept in a file beside the data (checkpoint), so a restart goes on from there. What it does not do:
 * retry with Lambda's own pacing (here a jittered backoff of at most a second or so), bisect a batch.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { matchesFilter, type Worker } from '#routes/workers.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#store/local.ts';
import { backoff } from '#store/retry.ts';

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  worker: Worker;
  invoke: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;
  /** How long an idle poll waits before the next (ms). */
  intervalMs?: number;
  /** How long records are gathered, from the first, before the worker is invoked (its batching window; ms). */
  batchingWindowMs?: number;
  /** Where the positions reached are kept between runs. */
  checkpointFile?: string;
  /** Where a shard with no position kept starts: its oldest record (as the event source mapping here), or only what comes next. */
  startAt?: 'TRIM_HORIZON' | 'LATEST';
  /** The bounds of a failing batch, when not the worker's own (a test's shorter ones). */
  maxRecordAgeMs?: number;
  maxRetries?: number;
  /** Where a batch given up on is recorded (the on-failure destination). */
  onFailure?: (message: OnFailureMessage) => void;
  log?: (message: string) => void;
}

/** What Lambda sends a stream mapping's on-failure destination (a batch's shard and range, not its records). */
export interface OnFailureMessage {
  requestContext: { condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; approximateInvokeCount: number; functionArn: string };
  responseContext: { statusCode: number; executedVersion: string; functionError?: string };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

export interface StreamPoller {
  /** Stops polling; with `drain`, first hands over every record the stream holds now (its window ended early), as a clean stop. */
  stop(options?: { drain?: boolean }): Promise<void>;
  /**
   * When the latest pass over the open shards that read nothing began (ms since the epoch), or 0 while the last pass
   * read something: every record the stream held at that time had been handed to the worker and answered.
   */
  restingSince(): number;
}

/** A stream record as the event source mapping hands it to a function (its JSON shape). */
function asEventRecord(r: _Record, streamArn: string): DynamoDBRecord {
  const { ApproximateCreationDateTime, ...rest } = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: r.awsRegion ?? LOCAL_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(rest as DynamoDBRecord['dynamodb']),
      ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(ApproximateCreationDateTime.getTime() / 1000) } : {}),
    },
  };
}

export async function startStreamPoller(options: StreamPollerOptions, tables: DynamoDBClient): Promise<StreamPoller> {
  const {
    endpoint,
    tableName,
    worker,
    invoke,
    intervalMs = 250,
    batchingWindowMs = 0,
    checkpointFile,
    startAt = 'TRIM_HORIZON',
    maxRecordAgeMs = worker.maxRecordAgeSeconds * 1000,
    maxRetries = worker.maxRetries,
    onFailure = () => undefined,
    log = () => undefined,
  } = options;
  const { Table } = await tables.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`the table ${tableName} has no change stream`);
  const streams = new DynamoDBStreamsClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

  const saved = checkpointFile && existsSync(checkpointFile) ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint) : undefined;
  const reached = new Map<string, string>(saved?.streamArn === streamArn ? Object.entries(saved.shards) : []);
  const finished = new Set<string>(saved?.streamArn === streamArn ? saved.finished : []);
  const iterators = new Map<string, string>();
  const save = () => {
    if (checkpointFile)
      writeFileSync(checkpointFile, JSON.stringify({ streamArn, shards: Object.fromEntries(reached), finished: [...finished] }));
  };

  const iterator = async (shardId: string, at?: { sequence: string; inclusive: boolean }) => {
    const from = at ?? (reached.has(shardId) ? { sequence: reached.get(shardId) as string, inclusive: false } : undefined);
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(from
          ? { ShardIteratorType: from.inclusive ? 'AT_SEQUENCE_NUMBER' : 'AFTER_SEQUENCE_NUMBER', SequenceNumber: from.sequence }
          : { ShardIteratorType: startAt }),
      }),
    );
    return ShardIterator;
  };

  /** One batch of one shard: handed to the worker until it succeeds. Answers whether it read anything. */
  const pollShard = async (shard: Shard): Promise<boolean> => {
    const shardId = shard.ShardId as string;
    const it = iterators.get(shardId) ?? (await iterator(shardId));
    if (!it) return false;
    // Records are gathered until the batch is full or, from the first matched, its batching window ends.
    const matched: DynamoDBRecord[] = [];
    let next: string | undefined = it;
    let last: string | undefined;
    let read = 0;
    let firstAt = 0;
    while (next) {
      let answer: GetRecordsCommandOutput;
      try {
        answer = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: worker.batchSize - matched.length }));
      } catch (error) {
        // DynamoDB Local's quirk (aws/aws-sdk-java#2923): an iterator taken on a fresh table's empty shard
        // fails at the shard's first record as if it read past the oldest. Nothing of the shard was read
        // yet, so it is taken again from the shard's oldest record: nothing is missed, nothing to log.
        const fresh = startAt === 'TRIM_HORIZON' && !reached.has(shardId) && read === 0;
        if ((error as Error).name !== 'TrimmedDataAccessException' || !fresh) throw error;
        iterators.delete(shardId);
        return false;
      }
      const { Records = [], NextShardIterator } = answer;
      next = NextShardIterator;
      read += Records.length;
      last = Records.at(-1)?.dynamodb?.SequenceNumber ?? last;
      matched.push(...Records.map((r) => asEventRecord(r, streamArn)).filter((r) => worker.filters.some((f) => matchesFilter(r, f))));
      if (matched.length > 0 && firstAt === 0) firstAt = Date.now();
      const left = firstAt + batchingWindowMs - Date.now();
      if (firstAt === 0 || left <= 0 || matched.length >= worker.batchSize || stopped || (draining && Records.length === 0)) break;
      if (Records.length === 0) await new Promise((r) => setTimeout(r, Math.min(intervalMs, left)));
    }
    /**
     * When a record arrived, as its age counts from: DynamoDB Local gives a record's creation time rounded down to
     * the minute (seen: records of 19:17:25 stamped 19:17:00), so here it is the later of that and when this
     * poller first gathered it — a record is never given up on before it is its worker's record age old.
     */
    const arrival = (r: DynamoDBRecord | undefined) => Math.max((r?.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000, firstAt);
    for (let attempt = 1; matched.length > 0; attempt++) {
      const failure = await invoke({ Records: matched }).then(
        (answer) => answer?.batchItemFailures?.[0]?.itemIdentifier,
        (error: Error) => {
          log(`${worker.name}: the batch failed (${error.message}); retried`);
          return matched[0]?.dynamodb?.SequenceNumber;
        },
      );
      if (failure === undefined) break;
      // Retried from the failed record, as the event source mapping does: the records before it are done.
      const from = matched.findIndex((r) => r.dynamodb?.SequenceNumber === failure);
      matched.splice(0, Math.max(0, from));
      // Past the worker's bounds, what is left of the batch is given up on and recorded; the shard goes on.
      const old = Date.now() - arrival(matched[0]) > maxRecordAgeMs;
      if (old || attempt > maxRetries) {
        const [first, last] = [matched[0] as DynamoDBRecord, matched.at(-1) as DynamoDBRecord];
        onFailure({
          requestContext: {
            condition: old ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
            approximateInvokeCount: attempt,
            functionArn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:${worker.name}`,
          },
          responseContext: { statusCode: 200, executedVersion: '$LATEST' },
          version: '1.0',
          timestamp: new Date().toISOString(),
          DDBStreamBatchInfo: {
            shardId,
            startSequenceNumber: first.dynamodb?.SequenceNumber as string,
            endSequenceNumber: last.dynamodb?.SequenceNumber as string,
            approximateArrivalOfFirstRecord: new Date(arrival(first)).toISOString(),
            approximateArrivalOfLastRecord: new Date(arrival(last)).toISOString(),
            batchSize: matched.length,
            streamArn,
          },
        });
        log(`${worker.name}: ${matched.length} records of ${shardId} given up on (${old ? 'record age' : 'retries'}); recorded`);
        break;
      }
      await new Promise((r) => setTimeout(r, Math.max(50, backoff(Math.min(attempt, 8)))));
      // A stop gives up a failing batch (its records stay for the next start); a draining one, after 8 tries.
      if (stopped || (draining && attempt >= 8)) return false;
    }
    if (last) reached.set(shardId, last);
    if (next) iterators.set(shardId, next);
    else {
      iterators.delete(shardId);
      finished.add(shardId);
      described = 0; // its children are to be found
    }
    if (read > 0 || !next) save();
    return read > 0;
  };

  let stopped = false;
  let draining = false;
  // The shards, described again when one closes (its children are then to be found), every second while none is
  // open, else every 30 s (a new shard opens every few hours, as its parent closes): a poll of an idle stream is then
  // one GetRecords per open shard. Described every second whatever was open, an idle runtime's three pollers took
  // 0.4 s of its Node's CPU and 0.55 s of its Java's a minute more (two runs each, 2026-11-30).
  let shards: Shard[] = [];
  let described = 0;
  let rested = 0;
  const openOf = (all: Shard[]) => all.filter((s) => !finished.has(s.ShardId as string));
  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      let failed = false;
      const began = Date.now();
      try {
        let open = openOf(shards);
        if (Date.now() - described > (open.length > 0 ? DESCRIBE_EVERY_MS : DESCRIBE_NONE_OPEN_MS)) {
          shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
          described = Date.now();
          open = openOf(shards);
        }
        // A child shard waits until its parent is read to its end (records of one item stay in order).
        for (const shard of open) {
          if (shard.ParentShardId && open.some((s) => s.ShardId === shard.ParentShardId)) continue;
          if (await pollShard(shard)) busy = true;
          if (stopped) break;
        }
      } catch (error) {
        // An expired iterator, or the store not answering: start the shards again from where they got to.
        iterators.clear();
        log(`${worker.name}: polling the change stream failed (${(error as Error).message}); polling again`);
        failed = true;
      }
      // A pass that read nothing and did not fail found every shard read to its end.
      rested = busy || failed ? 0 : began;
      if (!busy && draining) break; // drained: a pass found nothing
      if (!busy && !stopped) await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();

  return {
    restingSince: () => rested,
    stop: async ({ drain = false } = {}) => {
      if (drain) draining = true;
      else stopped = true;
      await loop;
      streams.destroy();
    },
  };
}

const DESCRIBE_EVERY_MS = 30_000;
const DESCRIBE_NONE_OPEN_MS = 1_000;

interface Checkpoint {
  streamArn: string;
  shards: Record<string, string>;
  finished: string[];
}
