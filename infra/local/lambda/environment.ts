/**
 * Lambda's execution environments, run locally as AWS runs them (contract §9.5; AWS's "Lambda execution
 * environment lifecycle" and "Runtime API"): each environment is a process of the function's bundle
 * started by a runtime client — Lambda's own (aws-lambda-ric) or bootstrap.mjs — against a Runtime API
 * of its own (this module's HTTP server: invocation/next, /response, /error, init/error). It serves one
 * invocation at a time; when its runtime asks for the next event and none is waiting it is frozen
 * (SIGSTOP: its timers do not run, its sockets wait), and thawed (SIGCONT) by its next invocation. After
 * `idleMs` without one it is shut down: with SIGTERM and Lambda's shutdown budget for the runtime only
 * when the function registers an extension (300 ms, then SIGKILL), otherwise with SIGKILL alone.
 * A pool of them per function (pool.ts) starts a new one when all are busy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FunctionConfig {
  /** The function's name in the service (route or worker name). */
  name: string;
  /** Where its bundle is (Lambda's /var/task). */
  taskRoot: string;
  handler: string;
  memoryMb: number;
  timeoutS: number;
  /** Its configured environment variables, resolved for this machine. */
  environment: Record<string, string>;
  /** Whether its configuration registers an extension (a layer): then shut-down sends SIGTERM first. */
  extensions: boolean;
}

export interface EnvironmentOptions {
  /**
   * The runtime client: 'aws-lambda-ric' (Lambda's own, a dev dependency: the default), 'bootstrap'
   * (bootstrap.mjs, the documented protocol in plain Node), or the path of a runtime client's entry.
   */
  runtimeClient?: string;
  /** Freeze between invocations, as Lambda does (default true). */
  freeze?: boolean;
  /** Each line the environment writes (its own log stream). */
  onLog?: (line: string) => void;
  /** Variables every environment gets (the store's endpoint, credentials). */
  baseEnvironment?: Record<string, string>;
}

export interface Answer {
  /** The handler's result, or its error as the Runtime API received it. */
  result?: unknown;
  error?: { errorType?: string; errorMessage?: string };
  durationMs: number;
}

interface Invocation {
  id: string;
  event: unknown;
  deadline: number;
  functionArn: string;
  done: (answer: Answer) => void;
  started: number;
}

const BOOTSTRAP = resolve(import.meta.dirname, 'bootstrap.mjs');
/**
 * Lambda's runtime interface client for Node (aws-lambda-ric, a dev dependency): its install scripts build its
 * native part (rapid-client.node: curl and aws-lambda-cpp linked statically, then node-gyp) from the sources it
 * ships — docs/local.md says what that needs and what it costs an install.
 */
const RIC = fileURLToPath(import.meta.resolve('aws-lambda-ric'));
/** The runtime client's entry for a name (or a path). */
export const runtimeClientEntry = (client = process.env.LAMBDA_RUNTIME_CLIENT ?? 'aws-lambda-ric') =>
  client === 'bootstrap' ? BOOTSTRAP : client === 'aws-lambda-ric' ? RIC : client;
/** The runtime's share of Lambda's shutdown phase when an extension is registered (AWS: 300 ms; 500 with an internal one). */
export const SHUTDOWN_BUDGET_MS = 300;
const PREFIX = '/2018-06-01/runtime';

let environments = 0;

export class Environment {
  readonly id = ++environments;
  state: 'init' | 'ready' | 'busy' | 'gone' = 'init';
  frozen = false;
  /** Time from start to the runtime's first request for an event (Lambda's Init Duration). */
  initMs?: number;
  invocations = 0;
  readonly logs: string[] = [];
  /** How the environment ended: 'SIGKILL' or 'SIGTERM' (then killed or exited), or an init error. */
  ended?: string;
  private readonly server: Server;
  private process?: ChildProcess;
  private waiting?: ServerResponse; // the runtime's pending request for its next event
  private queued?: Invocation;
  private current?: Invocation;
  private readonly started = Date.now();
  private readyResolve!: () => void;
  private readyReject!: (e: Error) => void;
  readonly ready = new Promise<void>((ok, fail) => {
    this.readyResolve = ok;
    this.readyReject = fail;
  });
  private readonly exited: Promise<void>;
  private exitResolve!: () => void;

  constructor(
    readonly config: FunctionConfig,
    private readonly options: EnvironmentOptions = {},
  ) {
    this.server = createServer((req, res) => void this.api(req, res));
    this.exited = new Promise((ok) => {
      this.exitResolve = ok;
    });
    // A failed init rejects `ready`; whoever waits on it sees that (no unhandled rejection otherwise).
    this.ready.catch(() => undefined);
  }

  /** Starts the runtime client against this environment's Runtime API (Lambda's Init phase). */
  async start(): Promise<this> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    const { port } = this.server.address() as AddressInfo;
    const { config, options } = this;
    const client = runtimeClientEntry(options.runtimeClient);
    const name = `deck-library-${config.name}`;
    this.process = spawn(process.execPath, client === BOOTSTRAP ? [BOOTSTRAP] : [client, config.handler], {
      cwd: config.taskRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        ...options.baseEnvironment,
        ...config.environment,
        AWS_LAMBDA_RUNTIME_API: `127.0.0.1:${port}`,
        LAMBDA_TASK_ROOT: config.taskRoot,
        _HANDLER: config.handler,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs',
        AWS_LAMBDA_FUNCTION_NAME: name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(config.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
        AWS_LAMBDA_LOG_STREAM_NAME: `local/${this.id}`,
        AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        this.logs.push(line);
        options.onLog?.(line);
      }
    };
    this.process.stdout?.on('data', lines);
    this.process.stderr?.on('data', lines);
    this.process.once('exit', (code, signal) => {
      this.ended ??= signal ?? `exit ${code}`;
      this.gone(new Error(`the environment ended (${this.ended})`));
      this.exitResolve();
    });
    return this;
  }

  /** Invokes the function in this environment (it must be ready and not busy). */
  invoke(event: unknown, functionArn: string): Promise<Answer> {
    if (this.state !== 'ready') throw new Error(`environment ${this.id} of ${this.config.name} is ${this.state}`);
    this.state = 'busy';
    this.invocations++;
    return new Promise((done) => {
      const invocation: Invocation = {
        id: randomUUID(),
        event,
        deadline: Date.now() + this.config.timeoutS * 1000,
        functionArn,
        done,
        started: Date.now(),
      };
      this.queued = invocation;
      if (this.waiting) this.deliver();
    });
  }

  /** Freezes the process (SIGSTOP), as Lambda does once the runtime waits for its next event. */
  freeze(): void {
    if (this.frozen || !this.process?.pid || this.state === 'gone') return;
    process.kill(this.process.pid, 'SIGSTOP');
    this.frozen = true;
  }

  /** Thaws it (SIGCONT). */
  thaw(): void {
    if (!this.frozen || !this.process?.pid || this.state === 'gone') return;
    process.kill(this.process.pid, 'SIGCONT');
    this.frozen = false;
  }

  /**
   * Shuts it down as Lambda does: with an extension registered, thawed, SIGTERM, and SIGKILL when the
   * runtime has not ended within its budget; without, SIGKILL at once (a frozen process ends so too).
   */
  async shutdown(): Promise<void> {
    if (this.state === 'gone' && this.process?.exitCode !== null) return this.close();
    const pid = this.process?.pid;
    if (pid && this.process?.exitCode === null && this.process.signalCode === null) {
      if (this.config.extensions) {
        this.thaw();
        this.ended = 'SIGTERM';
        process.kill(pid, 'SIGTERM');
        const killed = setTimeout(() => {
          this.ended = 'SIGTERM, then SIGKILL';
          if (this.process?.exitCode === null) process.kill(pid, 'SIGKILL');
        }, SHUTDOWN_BUDGET_MS);
        await this.exited;
        clearTimeout(killed);
      } else {
        this.ended = 'SIGKILL';
        process.kill(pid, 'SIGKILL');
        await this.exited;
      }
    }
    await this.close();
  }

  private async close(): Promise<void> {
    this.state = 'gone';
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private gone(error: Error): void {
    const wasInit = this.state === 'init';
    this.state = 'gone';
    this.frozen = false;
    if (wasInit) this.readyReject(error);
    const pending = this.current ?? this.queued;
    this.current = this.queued = undefined;
    pending?.done({ error: { errorType: 'Runtime.ExitError', errorMessage: error.message }, durationMs: Date.now() - pending.started });
  }

  /** Hands the queued invocation to the runtime's waiting request (thawing the process first). */
  private deliver(): void {
    const invocation = this.queued;
    const res = this.waiting;
    if (!invocation || !res) return;
    this.queued = undefined;
    this.waiting = undefined;
    this.current = invocation;
    this.thaw();
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': invocation.id,
      'lambda-runtime-deadline-ms': String(invocation.deadline),
      'lambda-runtime-invoked-function-arn': invocation.functionArn,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replaceAll('-', '').slice(0, 24)};Sampled=0`,
    });
    res.end(JSON.stringify(invocation.event));
    // Past its timeout Lambda ends the invocation and the environment with it.
    const timeout = setTimeout(
      () => {
        if (this.current !== invocation) return;
        this.logs.push(`${invocation.id} Task timed out after ${this.config.timeoutS} seconds`);
        void this.shutdown();
      },
      Math.max(0, invocation.deadline - Date.now()),
    );
    timeout.unref();
  }

  /** The Runtime API. */
  private async api(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await new Promise<string>((ok) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    });
    const url = req.url ?? '';
    const accepted = () => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"status":"OK"}');
    };
    if (req.method === 'GET' && url === `${PREFIX}/invocation/next`) {
      if (this.state === 'init') {
        this.initMs = Date.now() - this.started;
        this.state = 'ready';
        this.readyResolve();
      }
      this.waiting = res;
      if (this.queued) this.deliver();
      else if (this.options.freeze !== false) this.freeze();
      return;
    }
    if (req.method === 'POST' && url === `${PREFIX}/init/error`) {
      this.logs.push(`INIT_REPORT Init Duration: ${Date.now() - this.started} ms Phase: init Status: error ${body}`);
      accepted();
      this.readyReject(new Error(`init failed: ${body}`));
      return;
    }
    const answered = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
    const invocation = this.current;
    if (req.method === 'POST' && answered && invocation && answered[1] === invocation.id) {
      this.current = undefined;
      this.state = 'ready';
      accepted();
      const durationMs = Date.now() - invocation.started;
      this.logs.push(`REPORT RequestId: ${invocation.id} Duration: ${durationMs} ms`);
      invocation.done(
        answered[2] === 'response' ? { result: body ? JSON.parse(body) : null, durationMs } : { error: JSON.parse(body), durationMs },
      );
      return;
    }
    res.writeHead(answered ? 400 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errorMessage: 'not a request of this environment', errorType: answered ? 'InvalidRequestID' : 'NotFound' }));
  }
}
