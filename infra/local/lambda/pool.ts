/**
 * One function's execution environments, as Lambda keeps them for an on-demand function: an invocation
 * goes to an environment that is free (frozen between invocations), or to a new one when all are busy
 * (a cold start: Init, then the invocation); an environment idle for `idleMs` is shut down. At most
 * `maxEnvironments` at once (Lambda's concurrency limit; beyond it an invocation waits here, where AWS
 * would throttle).
 */
import { type Answer, Environment, type EnvironmentOptions, type FunctionConfig } from './environment.ts';

export interface PoolOptions extends EnvironmentOptions {
  /** Idle time before an environment is shut down (LAMBDA_IDLE_MS; default 300,000). */
  idleMs?: number;
  maxEnvironments?: number;
}

export class FunctionPool {
  readonly environments: Environment[] = [];
  /** Every environment this pool has started (gone ones too): what tests and the bench read. */
  readonly started: Environment[] = [];
  private readonly claimed = new Set<Environment>();
  private readonly idleTimers = new Map<Environment, NodeJS.Timeout>();
  private readonly waiting: (() => void)[] = [];
  private stopped = false;

  constructor(
    readonly config: FunctionConfig,
    private readonly options: PoolOptions = {},
  ) {}

  get arn(): string {
    return `arn:aws:lambda:local:000000000000:function:deck-library-${this.config.name}`;
  }

  /** Invokes the function: in a free environment, or a new one. */
  async invoke(event: unknown): Promise<Answer & { environment: Environment; cold: boolean }> {
    for (;;) {
      if (this.stopped) throw new Error(`${this.config.name}: the runtime is stopping`);
      const free = this.environments.find((e) => e.state === 'ready' && !this.claimed.has(e));
      if (free) return this.run(free, event, false);
      const live = this.environments.filter((e) => e.state !== 'gone').length;
      if (live < (this.options.maxEnvironments ?? 10)) {
        const env = new Environment(this.config, this.options);
        this.claimed.add(env);
        this.environments.push(env);
        this.started.push(env);
        await env.start();
        try {
          await env.ready;
        } catch (error) {
          this.claimed.delete(env);
          await this.remove(env);
          return {
            error: { errorType: 'Runtime.InitError', errorMessage: (error as Error).message },
            durationMs: 0,
            environment: env,
            cold: true,
          };
        }
        this.options.onLog?.(`environment ${env.id} started`);
        return this.run(env, event, true);
      }
      await new Promise<void>((ok) => this.waiting.push(ok));
    }
  }

  private async run(env: Environment, event: unknown, cold: boolean) {
    this.claimed.add(env);
    clearTimeout(this.idleTimers.get(env));
    try {
      const answer = await env.invoke(event, this.arn);
      return { ...answer, environment: env, cold };
    } finally {
      this.claimed.delete(env);
      if (env.state === 'gone') await this.remove(env);
      else this.idleTimers.set(env, setTimeout(() => void this.shutdown(env), this.options.idleMs ?? 300_000).unref());
      this.waiting.shift()?.();
    }
  }

  /** Shuts an environment down now (as its idle time running out does). */
  async shutdown(env: Environment): Promise<void> {
    if (this.claimed.has(env)) return; // busy again: its next idle time decides
    await this.remove(env);
  }

  private async remove(env: Environment): Promise<void> {
    clearTimeout(this.idleTimers.get(env));
    this.idleTimers.delete(env);
    const at = this.environments.indexOf(env);
    if (at >= 0) this.environments.splice(at, 1);
    const was = env.state;
    await env.shutdown();
    if (was !== 'gone') this.options.onLog?.(`environment ${env.id} shut down (${env.ended})`);
    this.waiting.shift()?.();
  }

  /** Shuts every environment down. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.environments].map((e) => this.remove(e)));
  }
}
