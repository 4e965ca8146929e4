/**
 * A local stand-in for the stage's access log and its subscription filter (infra/stack.ts): the local
 * gateway writes each answer's line in the stage's fields (access-log-fields.ts); the lines a subscriber's
 * pattern matches (lib/workers/) are handed to its function every `deliveryMs`, as CloudWatch Logs
 * delivers them — gzipped and base64-encoded in an `awslogs` event, each line with an id and a time — and
 * invoked as Lambda invokes asynchronously: a batch that fails is tried twice more (AWS waits a minute,
 * then two; here `retryMs`, then twice that), then recorded among the discarded (on-failure destination).
 * With a file (DATA_DIR), the log and how far it was delivered are kept across restarts, as CloudWatch
 * keeps them; a clean stop delivers what is left first.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import { type LogSubscriber, matchesSubscription } from '#routes/workers.ts';
import { encodeLogs, logsDelivery } from '#workers/access-log-views.ts';

export interface AccessLogOptions {
  subscriber: LogSubscriber;
  invoke: (event: CloudWatchLogsEvent) => Promise<unknown>;
  /** Where the lines are kept (else in memory); the delivered offset beside it (`.offset`), failed batches in `.discarded`. */
  file?: string;
  deliveryMs?: number;
  retryMs?: number;
  log?: (message: string) => void;
}

/** Most log events in one delivery (CloudWatch's batches stay within Lambda's 256 KB asynchronous payload). */
const PER_DELIVERY = 5_000;

export interface LocalAccessLog {
  write(line: Record<string, string>): void;
  /** Delivers what is pending now (and waits for it). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function startAccessLog({
  subscriber,
  invoke,
  file,
  deliveryMs = 1_000,
  retryMs = 1_000,
  log = () => undefined,
}: AccessLogOptions): LocalAccessLog {
  // In memory: the bytes from `delivered` on. In a file: the whole log, read from `delivered` on.
  let chunks: Buffer[] = [];
  const offsetFile = file && `${file}.offset`;
  let delivered = offsetFile && existsSync(offsetFile) ? Number(readFileSync(offsetFile, 'utf8')) : 0;
  const unread = (): Buffer => {
    if (!file) {
      chunks = [Buffer.concat(chunks)];
      return chunks[0] as Buffer;
    }
    if (!existsSync(file)) return Buffer.alloc(0);
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const bytes = Buffer.alloc(Math.max(0, size - delivered));
      readSync(fd, bytes, 0, bytes.length, delivered);
      return bytes;
    } finally {
      closeSync(fd);
    }
  };
  /** The whole lines written since the last delivery that the pattern matches, as log events (id: time and place in the log). */
  const pending = (): { events: CloudWatchLogsDecodedData['logEvents']; end: number } => {
    const bytes = unread();
    const whole = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
    const events: CloudWatchLogsDecodedData['logEvents'] = [];
    for (let from = 0; from < whole.length; ) {
      const to = whole.indexOf(0x0a, from);
      const line = whole.subarray(from, to).toString('utf8');
      const at = delivered + from;
      from = to + 1;
      const parsed = JSON.parse(line) as Record<string, string>;
      if (matchesSubscription(parsed, subscriber))
        events.push({ id: `${parsed.requestTime}${String(at).padStart(16, '0')}`, timestamp: Number(parsed.requestTime), message: line });
    }
    return { events, end: delivered + whole.length };
  };
  const advance = (to: number) => {
    if (file) writeFileSync(offsetFile as string, String(to));
    else chunks = [Buffer.concat(chunks).subarray(to - delivered)];
    delivered = to;
  };

  let running: Promise<void> = Promise.resolve();
  const deliver = async () => {
    const { events, end } = pending();
    for (let i = 0; i < events.length; i += PER_DELIVERY) {
      const data = logsDelivery(
        { owner: '000000000000', logGroup: 'local-access-log', logStream: 'local' },
        subscriber.name,
        events.slice(i, i + PER_DELIVERY),
      );
      const event = encodeLogs(data);
      for (let attempt = 1; ; attempt++) {
        const failed = await invoke(event).then(
          () => undefined,
          (e: Error) => e,
        );
        if (!failed) break;
        if (attempt === 3) {
          log(`${subscriber.name}: a batch of ${data.logEvents.length} log events failed 3 times (${failed.message}); discarded`);
          if (file) appendFileSync(`${file}.discarded`, `${JSON.stringify(data)}\n`);
          break;
        }
        log(`${subscriber.name}: a batch failed (${failed.message}); retried`);
        await new Promise((r) => setTimeout(r, retryMs * attempt));
      }
    }
    if (end > delivered) advance(end);
  };
  const flush = () => {
    running = running.then(deliver, deliver);
    return running;
  };
  const timer = setInterval(() => void flush(), deliveryMs);
  return {
    write(line) {
      const text = `${JSON.stringify(line)}\n`;
      if (file) appendFileSync(file, text);
      else chunks.push(Buffer.from(text));
    },
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
