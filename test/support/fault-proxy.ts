/**
 * A fault-injecting HTTP proxy between the API and DynamoDB Local (the API reaches it through
 * DYNAMODB_ENDPOINT). Per DynamoDB operation (its X-Amz-Target) or for all ('*'), it can pass the
 * call on, stall it (never answer), delay it (before it reaches the store, or its answer after), reset
 * the connection (before the store sees the call, or after the store applied it: the answer is lost),
 * answer a batch in part (`partial`: the store gets the first half of a BatchGetItem's keys or a BatchWriteItem's
 * requests, the rest come back as UnprocessedKeys / UnprocessedItems, as DynamoDB answers under load or past a
 * batch read's 16 MB), or answer one of DynamoDB's throttling, conflict or server errors — as the store itself would, over a
 * real socket, not a stubbed SDK. A fault may apply only to calls whose body holds a string (`match`),
 * and only a number of times (`times`). A delayed call whose client has gone is dropped, not forwarded
 * late. It also counts what passes: calls per operation, items written by the calls that succeeded, and the
 * capacity units every call consumed as the store reports them (it asks for them: ReturnConsumedCapacity
 * TOTAL, on each call that takes it; DynamoDB Local bills whole items, as AWS does).
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { crc32 } from 'node:zlib';

export type Fault = (
  | { kind: 'stall' }
  /** The call reaches the store `ms` late. */
  | { kind: 'delay'; ms: number }
  /** The call reaches the store at once; its answer comes back `ms` late. */
  | { kind: 'delayAnswer'; ms: number }
  /** The connection is reset before the store sees the call. */
  | { kind: 'reset' }
  /** The store applies the call; the connection is reset instead of its answer (applied, answer lost). */
  | { kind: 'dropAnswer' }
  /** A 200 whose body stops half-way: the connection drops mid-answer (the request never reaches the store). */
  | { kind: 'cut' }
  /** A batch answered in part: half its keys (or requests, at least one) reach the store, the rest are handed back unprocessed. */
  | { kind: 'partial' }
  | { kind: 'error'; status: number; type: string; message?: string; extra?: Record<string, unknown> }
  /**
   * An index that lags its table (DynamoDB: a global secondary index is eventually consistent): a call's answer is
   * the one the store gave the first call of the same body while the fault was set; a new body is passed on and kept.
   */
  | { kind: 'lagging' }
  /** The call waits before it reaches the store until `release()` (an order between two callers, set by the test). */
  | { kind: 'hold' }
) & {
  /** Only calls whose request body contains this. */
  match?: string;
  /** Only this many times, then calls pass again. */
  times?: number;
};

/** DynamoDB's own error answers. */
export const THROTTLING = {
  provisioned: { kind: 'error', status: 400, type: 'ProvisionedThroughputExceededException' },
  throttling: { kind: 'error', status: 400, type: 'ThrottlingException' },
  requestLimit: { kind: 'error', status: 400, type: 'RequestLimitExceeded' },
  internal: { kind: 'error', status: 500, type: 'InternalServerError' },
} as const satisfies Record<string, Fault>;

/** DynamoDB's answers to a call that meets an item held by a running transaction. */
export const CONFLICT = {
  /** An item call (UpdateItem, PutItem, DeleteItem) meets a transaction. */
  item: { kind: 'error', status: 400, type: 'TransactionConflictException', message: 'Transaction is ongoing for the item' },
  /** A transaction meets another: cancelled, reason TransactionConflict for its first item. */
  transaction: {
    kind: 'error',
    status: 400,
    type: 'TransactionCanceledException',
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
    extra: { CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }] },
  },
  unavailable: { kind: 'error', status: 503, type: 'ServiceUnavailable' },
} as const satisfies Record<string, Fault>;

export interface FaultProxy {
  url: string;
  /** The fault for one operation (`GetItem`, `TransactWriteItems`…) or for all (`*`); none passes calls on. */
  set(operation: string, fault?: Fault): void;
  /** Passes every call on again, and drops the stalled ones. */
  clear(): void;
  /** Sends the held calls on to the store. */
  release(): void;
  /** Calls seen per operation, and per outcome. */
  seen: Map<string, number>;
  /** Items written by calls that succeeded, by operation (a transaction's puts, updates and deletes; a batch's requests). */
  written: Map<string, number>;
  /** Capacity units consumed, read and written, as the store reported them. */
  units: { read: number; write: number };
  close(): Promise<void>;
}

const operationOf = (req: IncomingMessage) => String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '?';

/** The operations that report consumed capacity when asked, and which kind of units they consume. */
const CAPACITY: Record<string, 'read' | 'write'> = {
  GetItem: 'read',
  Query: 'read',
  Scan: 'read',
  BatchGetItem: 'read',
  TransactGetItems: 'read',
  PutItem: 'write',
  UpdateItem: 'write',
  DeleteItem: 'write',
  BatchWriteItem: 'write',
  TransactWriteItems: 'write',
};

/** The call's body asking for its consumed capacity (unless it asked already). */
function askingCapacity(operation: string, body: Buffer): Buffer {
  if (!CAPACITY[operation]) return body;
  try {
    const input = JSON.parse(body.toString()) as Record<string, unknown>;
    input.ReturnConsumedCapacity ??= 'TOTAL';
    return Buffer.from(JSON.stringify(input));
  } catch {
    return body;
  }
}

/** The units an answer says its call consumed (a list for batches and transactions). */
function unitsOf(answer: Buffer): number {
  try {
    const consumed = (JSON.parse(answer.toString()) as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] })
      .ConsumedCapacity;
    return [consumed ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
  } catch {
    return 0;
  }
}

/** Items a write call writes (if it succeeds): a condition check writes nothing. */
export function itemsWritten(operation: string, body: string): number {
  if (['PutItem', 'UpdateItem', 'DeleteItem'].includes(operation)) return 1;
  if (operation !== 'TransactWriteItems' && operation !== 'BatchWriteItem') return 0;
  const input = JSON.parse(body) as {
    TransactItems?: Record<string, unknown>[];
    RequestItems?: Record<string, unknown[]>;
  };
  if (operation === 'BatchWriteItem') return Object.values(input.RequestItems ?? {}).reduce((n, list) => n + list.length, 0);
  return (input.TransactItems ?? []).filter((item) => !('ConditionCheck' in item)).length;
}

/**
 * A batch call cut to its first half (`sent`), and what the store's answer then says was not processed (the
 * rest): the shape DynamoDB gives UnprocessedKeys and UnprocessedItems (the same form as RequestItems).
 */
function halved(operation: string, body: Buffer): { sent: Buffer; unprocessed: (answer: Buffer) => Buffer } | undefined {
  if (operation !== 'BatchGetItem' && operation !== 'BatchWriteItem') return undefined;
  const input = JSON.parse(body.toString()) as { RequestItems: Record<string, unknown> };
  const rest: Record<string, unknown> = {};
  for (const [table, asked] of Object.entries(input.RequestItems)) {
    const list = (operation === 'BatchGetItem' ? (asked as { Keys: unknown[] }).Keys : asked) as unknown[];
    const kept = list.slice(0, Math.ceil(list.length / 2));
    const left = list.slice(kept.length);
    input.RequestItems[table] = operation === 'BatchGetItem' ? { ...(asked as object), Keys: kept } : kept;
    if (left.length > 0) rest[table] = operation === 'BatchGetItem' ? { ...(asked as object), Keys: left } : left;
  }
  const field = operation === 'BatchGetItem' ? 'UnprocessedKeys' : 'UnprocessedItems';
  return {
    sent: Buffer.from(JSON.stringify(input)),
    unprocessed: (answer) => Buffer.from(JSON.stringify({ ...JSON.parse(answer.toString()), [field]: rest })),
  };
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const faults = new Map<string, Fault>();
  const used = new Map<Fault, number>();
  const stalled = new Set<Socket>();
  const held: (() => void)[] = [];
  const seen = new Map<string, number>();
  const written = new Map<string, number>();
  const units = { read: 0, write: 0 };
  const count = (key: string, n = 1, into = seen) => into.set(key, (into.get(key) ?? 0) + n);
  /** A lagging fault's answers, by the body of the call they answered. */
  const kept = new Map<Fault, Map<string, { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>>();

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    sent: Buffer,
    answer: (reply: () => void) => void = (reply) => reply(),
    rewrite?: (answer: Buffer) => Buffer,
  ) => {
    if (req.socket.destroyed) return count('dropped');
    const operation = operationOf(req);
    const body = askingCapacity(operation, sent);
    const headers = { ...req.headers, 'content-length': String(body.length) };
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (reply) => {
      const chunks: Buffer[] = [];
      reply.on('data', (c: Buffer) => chunks.push(c));
      reply.on('end', () => {
        const kind = CAPACITY[operation];
        if (kind) units[kind] += unitsOf(Buffer.concat(chunks));
        if (reply.statusCode === 200) count(operation, itemsWritten(operation, body.toString()), written);
        answer(() => {
          if (req.socket.destroyed) return;
          let text: Buffer = Buffer.concat(chunks);
          const headers = { ...reply.headers };
          if (rewrite && reply.statusCode === 200) {
            text = rewrite(text);
            // The SDK checks DynamoDB's CRC32 of the body: a rewritten answer carries its own.
            headers['content-length'] = String(text.length);
            if (headers['x-amz-crc32'] !== undefined) headers['x-amz-crc32'] = String(crc32(text));
          }
          res.writeHead(reply.statusCode ?? 502, headers);
          res.end(text);
        });
      });
    });
    out.on('error', () => res.destroy());
    out.end(body);
  };

  /** The fault that applies to this call, counting its use. */
  const faultFor = (operation: string, body: string): Fault | undefined => {
    for (const fault of [faults.get(operation), faults.get('*')]) {
      if (!fault || (fault.match !== undefined && !body.includes(fault.match))) continue;
      const n = used.get(fault) ?? 0;
      if (fault.times !== undefined && n >= fault.times) continue;
      used.set(fault, n + 1);
      return fault;
    }
    return undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const operation = operationOf(req);
    count(operation);
    const fault = faultFor(operation, body.toString());
    if (!fault) return forward(req, res, body);
    count(fault.kind);
    switch (fault.kind) {
      case 'stall':
        stalled.add(req.socket);
        req.socket.once('close', () => stalled.delete(req.socket));
        return;
      case 'delay':
        setTimeout(() => forward(req, res, body), fault.ms);
        return;
      case 'hold':
        held.push(() => forward(req, res, body));
        return;
      case 'delayAnswer':
        forward(req, res, body, (reply) => setTimeout(reply, fault.ms));
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'dropAnswer':
        forward(req, res, body, () => req.socket.resetAndDestroy());
        return;
      case 'partial': {
        const half = halved(operation, body);
        if (!half) return forward(req, res, body);
        forward(req, res, half.sent, undefined, half.unprocessed);
        return;
      }
      case 'cut':
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': 200 });
        res.write('{"Item":{"pk":{"S":"USER#');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      case 'lagging': {
        const answers = kept.get(fault) ?? new Map();
        kept.set(fault, answers);
        const old = answers.get(body.toString());
        if (old) {
          count('replayed');
          res.writeHead(old.status, old.headers);
          res.end(old.body);
          return;
        }
        forward(req, res, body, undefined, (answer) => {
          const headers = {
            'content-type': 'application/x-amz-json-1.0',
            'content-length': String(answer.length),
            'x-amz-crc32': String(crc32(answer)),
          };
          answers.set(body.toString(), { status: 200, headers, body: answer });
          return answer;
        });
        return;
      }
      case 'error': {
        const text = JSON.stringify({
          __type: `com.amazonaws.dynamodb.v20120810#${fault.type}`,
          message: fault.message ?? 'injected by the fault proxy',
          ...fault.extra,
        });
        res.writeHead(fault.status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      }
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  const dropStalled = () => {
    for (const socket of stalled) socket.destroy();
    stalled.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    set: (operation, fault) => {
      if (fault) {
        faults.set(operation, fault);
        used.delete(fault);
        kept.delete(fault);
      } else faults.delete(operation);
    },
    clear: () => {
      faults.clear();
      dropStalled();
    },
    release: () => {
      for (const send of held.splice(0)) send();
    },
    seen,
    written,
    units,
    close: () =>
      new Promise<void>((ok) => {
        dropStalled();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
