/**
 * The time guard over a whole route (contract §8.1): the middy stack — auth included — runs with a
 * deadline; when it is reached, the request's DynamoDB calls are aborted (their deadline signal,
 * lib/store/deadline.ts) so the stack answers 503 service_unavailable itself, and if it still has
 * not answered a moment later, the guard answers that 503 for it. Either way the client has its
 * answer within REQUEST_BUDGET_MS (and always before the function's own timeout).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loggedPath, logger } from '#logger';
import { withDeadline } from '#store/deadline.ts';
import { failure, requestIdOf } from './envelope.ts';
import { unavailable } from './errors.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The longest a request may take before it is answered 503; the functions' timeout is 10 s (FUNCTION_TIMEOUT_SECONDS). */
export const REQUEST_BUDGET_MS = 8_000;
/** Kept free before the function's own timeout. */
const TIMEOUT_MARGIN_MS = 1_000;
/** How long the stack gets, once its calls are aborted, to answer by itself. */
const GRACE_MS = 250;

const budget = (context: Context): number => {
  const configured = Number(process.env.REQUEST_BUDGET_MS) || REQUEST_BUDGET_MS;
  const remaining = context.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(configured, remaining - TIMEOUT_MARGIN_MS));
};

const timeoutError = () => Object.assign(new Error('the request ran out of time'), { name: 'TimeoutError' });

export function withTimeGuard(handler: Handler): Handler {
  return async (event, context) => {
    const controller = new AbortController();
    const started = Date.now();
    const allowed = budget(context);
    const run = withDeadline({ signal: controller.signal, at: started + allowed }, () => handler(event, context));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<APIGatewayProxyStructuredResultV2>((resolve) => {
      timer = setTimeout(async () => {
        controller.abort(timeoutError());
        const gave = new Promise<undefined>((r) => setTimeout(() => r(undefined), GRACE_MS));
        const answered = await Promise.race([run.catch(() => undefined), gave]);
        if (answered) return resolve(answered);
        const requestId = requestIdOf(event, context.awsRequestId);
        const response = failure(unavailable('the request ran out of time; retry shortly'), requestId);
        logger.warn('request', {
          request_id: requestId,
          method: event.requestContext?.http?.method,
          path: loggedPath(event.rawPath),
          status: response.statusCode,
          duration_ms: Date.now() - started,
          timed_out: true,
        });
        resolve(response);
      }, allowed);
    });
    try {
      return await Promise.race([run, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
