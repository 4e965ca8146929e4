/**
 * The most a flood can cost a day (contract §10.2, §11.4): for each capped route (lib/routes: the deck
 * images, CPU per request on input anyone can vary), read from the synthesised template — the throttle of
 * every route key that reaches its function (the GET and its HEAD twin: API Gateway throttles each key on
 * its own, and a HEAD draws as the GET does), its function's reserved concurrency if any, memory and
 * timeout — with the prices of prices.ts. The throttles bound the requests a day; a reservation (off by
 * default) bounds the function's seconds a day however slow each render is (without one, every request at
 * the timeout). Beyond the free tiers: Lambda's and CloudWatch's monthly free allowances are not counted.
 */
import { methodsOf, ROUTES, type Route, routeKey } from '#routes';
import { PRICES } from './prices.ts';
import { pascal } from './stack.ts';

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

/**
 * Log bytes a request writes: the function's access line and metric line, Lambda's START, END and REPORT
 * lines, and API Gateway's access log line — for a usual request (`usual`), and at most (`most`: the
 * request line and headers an HTTP API takes, 10,240 bytes, all in the access line; the function's own
 * line holds 256 characters of a path). test/infra/operations.test.ts holds a code image's requests to both.
 */
export const LOG_BYTES = { usual: 2_048, most: 12_288 } as const;
/**
 * A render's time in a deployed function, as the runbook's figure assumes it: a warm code image's render at a
 * 1,024 MB function's 0.58 of a vCPU (a whole one at 1,769 MB) with room to spare, or a new process's first
 * render at a whole core (`npm run bench` parts 2b and 3 measure both; docs/operations.md gives a run's figures).
 */
export const RENDER_MS = 250;
const DAY_SECONDS = 86_400;

export interface FloodLine {
  route: string;
  /** The route keys that reach its function (`GET …`, `HEAD …`), each throttled on its own. */
  routeKeys: string[];
  /** Each key's throttle (the same for all of a route's keys: its class's). */
  rateLimit: number;
  burstLimit: number;
  reserved: number | undefined;
  memoryMb: number;
  timeoutSeconds: number;
  requestsPerDay: number;
  /** US$ a day when every request takes the whole timeout (as far as the reservation lets it) and logs the most it can. */
  worstPerDay: number;
  /** US$ a day at `renderMs` a request, each logging the usual. */
  atRenderPerDay: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function floodCost(template: { Resources: Resources }, renderMs: number): FloodLine[] {
  const resources = Object.entries(template.Resources);
  const stage = resources.find(([, r]) => r.Type === 'AWS::ApiGatewayV2::Stage')?.[1];
  const settings = stage?.Properties?.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
  return (ROUTES as readonly Route[])
    .filter((r) => r.capped)
    .map((route) => {
      const id = `${pascal(route.name)}Function`;
      const fn = resources.find(([key, r]) => r.Type === 'AWS::Lambda::Function' && key.startsWith(id))?.[1].Properties ?? {};
      const keys = methodsOf(route).map((m) => routeKey(route, m));
      const throttles = keys.map((k) => settings[k] as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number });
      const throttle = throttles[0] as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
      const reserved = fn.ReservedConcurrentExecutions as number | undefined;
      const gb = (fn.MemorySize as number) / 1024;
      const timeout = fn.Timeout as number;
      // Each key's token bucket: a full bucket once, then the rate; the function takes every key's.
      const requests = throttles.reduce((n, t) => n + t.ThrottlingBurstLimit + t.ThrottlingRateLimit * DAY_SECONDS, 0);
      const byRequest = (logBytes: number) =>
        (requests / 1e6) * (PRICES.lambda.requestsPerMillion + PRICES.httpApi.requestsPerMillion) +
        ((requests * logBytes) / 1e9) * PRICES.cloudwatch.logsIngestedGb;
      const seconds = (each: number) => Math.min(requests * each, (reserved ?? Number.POSITIVE_INFINITY) * DAY_SECONDS);
      const cost = (each: number, logBytes: number) => round2(byRequest(logBytes) + seconds(each) * gb * PRICES.lambda.armGbSecond);
      return {
        route: `${route.method} ${route.path}`,
        routeKeys: keys,
        rateLimit: throttle.ThrottlingRateLimit,
        burstLimit: throttle.ThrottlingBurstLimit,
        reserved,
        memoryMb: fn.MemorySize as number,
        timeoutSeconds: timeout,
        requestsPerDay: requests,
        worstPerDay: cost(timeout, LOG_BYTES.most),
        atRenderPerDay: cost(renderMs / 1000, LOG_BYTES.usual),
      };
    });
}

/** The runbook's table of it. */
export function floodTable(lines: FloodLine[], renderMs: number): string {
  const rows = lines.map(
    (l) =>
      `| \`${l.route}\` (and its HEAD) | ${l.rateLimit} / ${l.burstLimit} each | ${l.reserved ?? 'none'} | ${l.memoryMb} MB, ${l.timeoutSeconds} s | ${l.requestsPerDay.toLocaleString('en-US')} | $${l.atRenderPerDay.toFixed(2)} | $${l.worstPerDay.toFixed(2)} |`,
  );
  const total = (f: (l: FloodLine) => number) => lines.reduce((n, l) => n + f(l), 0).toFixed(2);
  return [
    `| route | throttle of each key (rate / burst) | reserved concurrency | memory, timeout | requests a day at most | $ a day at ${renderMs} ms a render | $ a day at most |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
    `| all capped routes | | | | | $${total((l) => l.atRenderPerDay)} | $${total((l) => l.worstPerDay)} |`,
  ].join('\n');
}
