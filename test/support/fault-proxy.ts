/**
 * A fault-injecting HTTP proxy between the API and DynamoDB Local (the API reaches it through
 * DYNAMODB_ENDPOINT). Per DynamoDB operation (its X-Amz-Target) or for all ('*'), it can pass the
 * call on, stall it (never answer), delay it, reset the connection, or answer one of DynamoDB's
 * throttling or server errors — as the store itself would, over a real socket, not a stubbed SDK.
 * A delayed call whose client has gone is dropped, not forwarded late.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Fault =
  | { kind: 'stall' }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  /** A 200 whose body stops half-way: the connection drops mid-answer (the request never reaches the store). */
  | { kind: 'cut' }
  | { kind: 'error'; status: number; type: string; message?: string };

/** DynamoDB's own error answers. */
export const THROTTLING = {
  provisioned: { kind: 'error', status: 400, type: 'ProvisionedThroughputExceededException' },
  throttling: { kind: 'error', status: 400, type: 'ThrottlingException' },
  requestLimit: { kind: 'error', status: 400, type: 'RequestLimitExceeded' },
  internal: { kind: 'error', status: 500, type: 'InternalServerError' },
} as const satisfies Record<string, Fault>;

export interface FaultProxy {
  url: string;
  /** The fault for one operation (`GetItem`, `TransactWriteItems`…) or for all (`*`); none passes calls on. */
  set(operation: string, fault?: Fault): void;
  /** Passes every call on again, and drops the stalled ones. */
  clear(): void;
  /** Calls seen per operation, and per outcome. */
  seen: Map<string, number>;
  close(): Promise<void>;
}

const operationOf = (req: IncomingMessage) => String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '?';

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const faults = new Map<string, Fault>();
  const stalled = new Set<Socket>();
  const seen = new Map<string, number>();
  const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (req.socket.destroyed) return count('dropped');
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const operation = operationOf(req);
    count(operation);
    const fault = faults.get(operation) ?? faults.get('*');
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
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'cut':
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': 200 });
        res.write('{"Item":{"pk":{"S":"USER#');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      case 'error': {
        const text = JSON.stringify({
          __type: `com.amazonaws.dynamodb.v20120810#${fault.type}`,
          message: fault.message ?? 'injected by the fault proxy',
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
    set: (operation, fault) => (fault ? faults.set(operation, fault) : faults.delete(operation)),
    clear: () => {
      faults.clear();
      dropStalled();
    },
    seen,
    close: () =>
      new Promise<void>((ok) => {
        dropStalled();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
