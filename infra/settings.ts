/**
 * The operator's settings of a deployment, from CDK context values (cdk.json or `-c key=value`), each
 * with a sane default: throttles per route class, an optional concurrency reservation, tracing, source
 * maps in stack traces, and the alarms' recipient and thresholds. docs/operations.md says what each is for.
 */
import type { App } from 'aws-cdk-lib';

export interface Limits {
  rateLimit: number;
  burstLimit: number;
}

export interface OpsSettings {
  /** Per-route throttles: reads (GET), writes (everything else, stricter), and capped routes (the deck images: CPU per request). */
  throttle: { read: Limits; write: Limits; capped: Limits };
  /** Reserved concurrency of each function: a spend ceiling. Off by default (new accounts have a quota of 10). */
  reservedConcurrency?: number;
  /**
   * Reserved concurrency of each capped route's function (its renders at once at most: a flood's seconds a day
   * bounded). Off by default (contract §11.4): Lambda refuses a reservation that leaves fewer than 100
   * executions unreserved, and new accounts have a quota of 10 — the default template must deploy there. The
   * route's throttle is the flood's cap; a number turns a reservation on (docs/operations.md says when).
   */
  cappedConcurrency?: number;
  /** Lambda active tracing (X-Ray): off by default; see its cost in docs/operations.md. */
  tracing: boolean;
  /**
   * Node's source-map support in the functions (NODE_OPTIONS=--enable-source-maps): stack traces in
   * the logs point into the sources. Off by default: it reads and parses the bundle's map at every
   * cold start, 10–16 ms (`npm run bench` measures without it). The maps ship in every bundle either way.
   */
  sourceMaps: boolean;
  /** Where alarms are e-mailed (an SNS subscription); none by default (subscribe to the topic yourself). */
  alarmEmail?: string;
  /**
   * The operations dashboard (23 metrics): off by default. It is free while the account has one of
   * CloudWatch's 3 free dashboards left, and $3 a month otherwise — three times the stack's idle budget
   * (docs/operations.md, "What an idle stack costs").
   */
  dashboard: boolean;
  /** The CloudFront distribution in front of the API (contract §11.2): on by default, `edge=false` leaves it out. */
  edge: boolean;
  /** A custom domain for it, opt-in: its names (comma-separated) and an ACM certificate of them in us-east-1. */
  domain?: { names: string[]; certificateArn: string };
  /**
   * The Discord application's public key (64 hex characters, the Developer Portal's "Public Key"): the
   * interactions endpoint checks every request's signature with it. Public, not a secret; none by default, and
   * without one the endpoint answers 404 and nothing else changes (contract §11.3).
   */
  discordPublicKey?: string;
  thresholds: {
    /** API 5xx answers as a percentage of all answers, over 5 minutes. */
    serverErrorPercent: number;
    /** p99 duration of the shared read and the search, in milliseconds, over 5 minutes. */
    p99Ms: number;
    /** Concurrent executions in the account (its quota is 1,000 by default, 10 in new accounts). */
    concurrency: number;
  };
}

export const CONTEXT_PREFIX = 'deck-library:';

export function opsSettings(app: App): OpsSettings {
  const get = (key: string) => app.node.tryGetContext(`${CONTEXT_PREFIX}${key}`) as unknown;
  const number = (key: string, fallback: number) => Number(get(key) ?? fallback);
  /** A setting that is off unless given a number (`off`, empty or absent: off). */
  const optionalNumber = (value: unknown) =>
    value === undefined || value === null || value === '' || String(value) === 'off' ? undefined : Number(value);
  return {
    throttle: {
      read: { rateLimit: number('readRateLimit', 100), burstLimit: number('readBurstLimit', 200) },
      write: { rateLimit: number('writeRateLimit', 10), burstLimit: number('writeBurstLimit', 20) },
      capped: { rateLimit: number('cappedRateLimit', 5), burstLimit: number('cappedBurstLimit', 5) },
    },
    reservedConcurrency: optionalNumber(get('reservedConcurrency')),
    cappedConcurrency: optionalNumber(get('cappedConcurrency')),
    tracing: String(get('tracing') ?? 'false') === 'true',
    sourceMaps: String(get('sourceMaps') ?? 'false') === 'true',
    alarmEmail: (get('alarmEmail') as string | undefined) || undefined,
    dashboard: String(get('dashboard') ?? 'false') === 'true',
    edge: String(get('edge') ?? 'true') !== 'false',
    ...(get('domainNames') && get('certificateArn')
      ? {
          domain: {
            names: String(get('domainNames'))
              .split(',')
              .map((n) => n.trim())
              .filter(Boolean),
            certificateArn: String(get('certificateArn')),
          },
        }
      : {}),
    ...discordKey(get('discordPublicKey')),
    thresholds: {
      serverErrorPercent: number('alarmServerErrorPercent', 1),
      p99Ms: number('alarmP99Ms', 1_000),
      concurrency: number('alarmConcurrency', 800),
    },
  };
}

/** The discordPublicKey setting: none, or 64 hex characters — anything else stops the synth, saying so. */
function discordKey(value: unknown): { discordPublicKey?: string } {
  if (value === undefined || value === null || value === '') return {};
  const key = String(value).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(key))
    throw new Error(
      `${CONTEXT_PREFIX}discordPublicKey must be the application's public key: 64 hex characters (the Developer Portal's "Public Key")`,
    );
  return { discordPublicKey: key.toLowerCase() };
}
