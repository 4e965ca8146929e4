/**
 * A request answered by its route's handler in this process, as Lambda invokes it (Powertools'
 * in-process handler tests): the event API Gateway would send, the answer exactly as the function
 * returns it — what Lambda's 6 MB response limit applies to (sentBytes).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/events.ts';
import type { Reply } from './api.ts';

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The function a request goes to, its module loaded (its init done: what a cold start does, before the request),
 * and `invoke`, the request run by its handler — so that a test may count the store calls of the request alone.
 */
export async function functionFor(method: string, url: string) {
  const { route, params } = matchRoute(method, new URL(url, 'http://local').pathname);
  const { handler } = (await import(/* @vite-ignore */ `../../${route.handler}`)) as { handler: Handler };
  return {
    route,
    invoke: (headers: Record<string, string> = {}, body: Buffer = Buffer.alloc(0)) =>
      handler(toEvent({ method, url, headers, body }, route, params), lambdaContext(route)),
  };
}

export async function inFunction(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body: Buffer = Buffer.alloc(0),
): Promise<APIGatewayProxyStructuredResultV2> {
  return (await functionFor(method, url)).invoke(headers, body);
}

/** The bytes of a function's answer as Lambda receives it (its JSON), the body within it escaped again. */
export const sentBytes = (answer: APIGatewayProxyStructuredResultV2): number => Buffer.byteLength(JSON.stringify(answer));

/** A function's answer read as `call` reads one over HTTP: status, headers, its body's bytes, text and JSON (when it is JSON). */
export function replyOf(answer: APIGatewayProxyStructuredResultV2): Reply {
  const bytes = Buffer.from(String(answer.body ?? ''), answer.isBase64Encoded ? 'base64' : 'utf8');
  const text = bytes.toString('utf8');
  const headers = new Headers(Object.entries(answer.headers ?? {}).map(([k, v]) => [k, String(v)]));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: answer.statusCode ?? 200, headers, body, text, bytes };
}

/** inFunction's answer as a Reply. */
export const inFunctionReply = async (...args: Parameters<typeof inFunction>): Promise<Reply> => replyOf(await inFunction(...args));
