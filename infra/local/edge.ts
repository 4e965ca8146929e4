/**
 * A local stand-in for the CloudFront distribution (contract §11.2; `npm start` with EDGE_PORT): an HTTP
 * server in front of the local gateway that does what the deployed edge does with the same parts — the
 * viewer-request function's own code (infra/edge-function.ts, run in a V8 context of its own), the behaviours
 * derived from the route table (infra/edge-behaviours.ts): a cached path's answer (a 200 or a redirect) kept by its
 * cache key (the path, its declared query parameters — each value of one given twice —, the language, host and
 * catalogue the function set), for as long as its Cache-Control's `max-age` says (none, `no-store` or `private`: not
 * kept); a matching If-None-Match
 * answered 304 from the cache; only the key's values and a preflight's headers forwarded (no Authorization,
 * cookie or Host); the API's CORS headers on cached answers. Every other path goes through, never kept, with
 * every header but Host. Each answer says `x-cache: Hit from cloudfront` or `Miss from cloudfront`, as
 * CloudFront's do. What it does not do: TLS, compression (no Accept-Encoding is forwarded on a cached path),
 * request collapsing (two misses at once both reach the origin), stale-while-revalidate, the TTL bounds of
 * the cache policy beyond max-age (at most a day), the error caching of 4xx and 5xx answers, eviction (the cache lives
 * as long as the process), ranges (a `Range` header is not forwarded and the whole answer is sent, 200, where
 * CloudFront answers 206 or 416: a downloader that resumes must not use this stand-in to test it). A request
 * for `/` is sent to the root path, as to the default root object, through the default behaviour (never kept:
 * which behaviour CloudFront applies to it is not documented, and never keeping it cannot serve a stale copy).
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { runInNewContext } from 'node:vm';
import { CORS, ROUTES, type Route } from '#routes';
import { BULK_FOLDER } from '#rules/bulk.ts';
import { behaviourOf, cachedBehaviours } from '../edge-behaviours.ts';
import { EDGE_CATALOGUE_HEADER, EDGE_HOST_HEADER, EDGE_LANGUAGE_HEADER, edgeFunctionCode } from '../edge-function.ts';

type EdgeHeaders = Record<string, { value: string }>;
type ViewerRequest = (event: { request: { headers: EdgeHeaders } }) => { headers: EdgeHeaders };

interface Kept {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  until: number;
}

export interface LocalEdge {
  url: string;
  /** Requests that reached the origin, and those answered from the cache. */
  misses: () => number;
  hits: () => number;
  stop(): Promise<void>;
}

/** Headers a cached path forwards beside its cache key: what a CORS preflight needs. */
const PREFLIGHT = ['origin', 'access-control-request-method', 'access-control-request-headers'];
/** The answers the stand-in keeps (for as long as their Cache-Control says): a success and the redirects. */
const KEPT_STATUSES = new Set([200, 301, 302, 307, 308]);
/** Headers of the hop, not of the answer. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** How long an answer may be kept (ms), as its Cache-Control says: 0 when it may not. */
export function keptFor(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase();
  if (/\b(no-store|private|no-cache)\b/.test(directives)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(directives)?.[1];
  return maxAge === undefined ? 0 : Math.min(Number(maxAge), 86_400) * 1000;
}

/**
 * `root`: the path a request for `/` is sent to (CloudFront's default root object). `objects`: the bulk files' bucket
 * (its URL, path-style: infra/local/objects.ts), behind `/bulk/*` as the distribution's S3 origin is — a GET or HEAD
 * sent with no header of the viewer's, kept by its path alone.
 */
export async function startLocalEdge(port: number, origin: string, catalogue: string, root: string, objects?: string): Promise<LocalEdge> {
  const viewerRequest = runInNewContext(`${edgeFunctionCode(catalogue)}\nhandler`) as ViewerRequest;
  const behaviours = cachedBehaviours(ROUTES as readonly Route[]);
  const cache = new Map<string, Kept>();
  let [misses, hits] = [0, 0];
  const api = new URL(origin);
  const bucket = objects ? new URL(objects) : undefined;

  const forward = (req: IncomingMessage, headers: Record<string, string>, body: Buffer, path: string, target = api) =>
    new Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }>((ok, fail) => {
      misses++;
      const out = request({ host: target.hostname, port: target.port, method: req.method, path, headers }, (reply) => {
        const chunks: Buffer[] = [];
        reply.on('data', (c: Buffer) => chunks.push(c));
        reply.on('end', () =>
          ok({ status: reply.statusCode ?? 502, headers: reply.headers as Record<string, string | string[]>, body: Buffer.concat(chunks) }),
        );
        reply.on('error', fail);
      });
      out.on('error', fail);
      out.end(body);
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const url = new URL(req.url ?? '/', 'http://edge');
        const asked = url.pathname;
        if (asked === '/') url.pathname = root;
        // The viewer-request function, on the headers it reads and writes.
        const edgeHeaders: EdgeHeaders = { host: { value: req.headers.host ?? '' } };
        const accept = req.headers['accept-language'];
        if (accept !== undefined) edgeHeaders[EDGE_LANGUAGE_HEADER] = { value: String(accept) };
        const set = viewerRequest({ request: { headers: edgeHeaders } }).headers;
        const fromFunction = Object.fromEntries(
          [EDGE_LANGUAGE_HEADER, EDGE_HOST_HEADER, EDGE_CATALOGUE_HEADER].map((h) => [h, set[h]?.value ?? '']),
        );
        const behaviour = behaviourOf(behaviours, asked);
        const fromBucket = bucket !== undefined && asked.startsWith(`/${BULK_FOLDER}/`) && (req.method === 'GET' || req.method === 'HEAD');
        const send = (status: number, headers: Record<string, string | string[]>, body: Buffer, how: 'Hit' | 'Miss') => {
          const out = Object.fromEntries(Object.entries(headers).filter(([h]) => !HOP.has(h)));
          // A HEAD's answer has no body: its length is the origin's, as a GET's would be (CloudFront passes it on).
          const given = headers['content-length'];
          const length = req.method === 'HEAD' && given !== undefined ? Number(given) : body.length;
          res.writeHead(status, { ...out, 'x-cache': `${how} from cloudfront`, 'content-length': length });
          res.end(req.method === 'HEAD' ? undefined : body);
        };
        if (fromBucket) {
          // The bulk files: keyed by the path alone (no query, header or cookie), kept as their Cache-Control says.
          const key = JSON.stringify([req.method, asked]);
          const kept = cache.get(key);
          if (kept && kept.until > Date.now()) {
            hits++;
            return send(kept.status, kept.headers, kept.body, 'Hit');
          }
          const answer = await forward(req, {}, Buffer.alloc(0), `${bucket.pathname.replace(/\/$/, '')}${asked}`, bucket);
          const keep = answer.status === 200 ? keptFor(String(answer.headers['cache-control'] ?? '')) : 0;
          if (keep > 0) cache.set(key, { status: answer.status, headers: answer.headers, body: answer.body, until: Date.now() + keep });
          return send(answer.status, answer.headers, answer.body, 'Miss');
        }
        if (!behaviour || (req.method !== 'GET' && req.method !== 'HEAD')) {
          // The default behaviour: never kept, every viewer header but Host (and the function's).
          const headers = Object.fromEntries(
            Object.entries(req.headers)
              .filter(([h]) => h !== 'host' && !HOP.has(h))
              .map(([h, v]) => [h, String(v)]),
          );
          const answer = await forward(req, { ...headers, ...fromFunction }, Buffer.concat(chunks), `${url.pathname}${url.search}`);
          return send(answer.status, answer.headers, answer.body, 'Miss');
        }
        // A cached behaviour: its key, and only its values (and a preflight's) forwarded — every value of a parameter
        // given twice, as CloudFront forwards them (API Gateway joins them, and the API says a parameter is given once).
        const query = behaviour.query
          .flatMap((q) => url.searchParams.getAll(q).map((value) => `${encodeURIComponent(q)}=${encodeURIComponent(value)}`))
          .join('&');
        const path = `${url.pathname}${query ? `?${query}` : ''}`;
        const key = JSON.stringify([req.method, path, fromFunction]);
        const kept = cache.get(key);
        if (kept && kept.until > Date.now()) {
          hits++;
          const etag = kept.headers.etag;
          if (etag !== undefined && req.headers['if-none-match'] === etag) return send(304, { etag }, Buffer.alloc(0), 'Hit');
          return send(kept.status, kept.headers, kept.body, 'Hit');
        }
        const preflight = Object.fromEntries(PREFLIGHT.filter((h) => req.headers[h] !== undefined).map((h) => [h, String(req.headers[h])]));
        const answer = await forward(req, { ...fromFunction, ...preflight }, Buffer.alloc(0), path);
        const headers = {
          ...answer.headers,
          'access-control-allow-origin': answer.headers['access-control-allow-origin'] ?? CORS.allowOrigins[0],
        };
        // A 200, and a redirect that carries Cache-Control (CloudFront developer guide, "How CloudFront processes HTTP
        // 3xx status codes from your origin": 307 and 308 kept only then): kept as long as it says.
        const keep = KEPT_STATUSES.has(answer.status) ? keptFor(String(answer.headers['cache-control'] ?? '')) : 0;
        if (keep > 0) cache.set(key, { status: answer.status, headers, body: answer.body, until: Date.now() + keep });
        send(answer.status, headers, answer.body, 'Miss');
      } catch (e) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`the local edge could not reach its origin: ${(e as Error).message}`);
      }
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    misses: () => misses,
    hits: () => hits,
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
