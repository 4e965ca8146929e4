/**
 * A local stand-in for the service's queues (Amazon SQS). The discarded-changes queue: what a worker gives up on
 * (lib/workers/discard.ts) and what a stream poller gives up on past its bounds (streams.ts) land here, one JSON line a
 * message in a file beside the data (`discarded-changes.jsonl`), and are printed. The webhook deliveries' queue: each
 * message, after its DelaySeconds, is handed to its consumer (consumer.ts runs the deliveries worker as its event
 * source mapping does). It answers SQS's `SendMessage` in the AWS JSON 1.0 protocol the SDK speaks (`X-Amz-Target:
 * AmazonSQS.SendMessage`; the answer's MD5OfMessageBody is the MD5 of the body, as the SDK checks it). What it does not
 * do: any other action (receive, delete, visibility: the consumer stands in for them), signatures (any credentials
 * are taken), message attributes, FIFO queues, retention.
 */
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

export interface LocalQueue {
  /** The endpoint (SQS_ENDPOINT), the discarded-changes queue's URL (DISCARDED_QUEUE_URL) and the deliveries' (DELIVERIES_QUEUE_URL). */
  endpoint: string;
  url: string;
  deliveriesUrl: string;
  /** Records a message (the stream pollers' on-failure destination, in this process). */
  send(body: string): void;
  stop(): Promise<void>;
}

/** The messages a queue file holds, parsed, oldest first. */
export const queued = (file: string): unknown[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).body)
        .map((body: string) => JSON.parse(body))
    : [];

/** A message handed to the deliveries' consumer once its delay has passed. */
export type Deliver = (message: { id: string; body: string; delaySeconds: number }) => void;

const DELIVERIES = '/000000000000/webhook-deliveries';

export async function startLocalQueue(
  file: string,
  log: (line: string) => void = () => undefined,
  deliver: Deliver = () => undefined,
): Promise<LocalQueue> {
  const send = (body: string) => {
    appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), body })}\n`);
    log(`discarded-changes queue: ${body.slice(0, 300)}`);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
        res.end(JSON.stringify(body));
      };
      if (req.headers['x-amz-target'] !== 'AmazonSQS.SendMessage')
        return answer(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: 'the local queue takes SendMessage only' });
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        MessageBody?: string;
        QueueUrl?: string;
        DelaySeconds?: number;
      };
      if (typeof input.MessageBody !== 'string' || input.MessageBody === '')
        return answer(400, { __type: 'com.amazonaws.sqs#MissingParameter', message: 'MessageBody is required' });
      const delaySeconds = input.DelaySeconds ?? 0;
      if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 900)
        return answer(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'DelaySeconds is 0 to 900' });
      const id = randomUUID();
      if (String(input.QueueUrl ?? '').endsWith(DELIVERIES)) deliver({ id, body: input.MessageBody, delaySeconds });
      else send(input.MessageBody);
      answer(200, { MessageId: id, MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    url: `${endpoint}/000000000000/discarded-changes`,
    deliveriesUrl: `${endpoint}${DELIVERIES}`,
    send,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
