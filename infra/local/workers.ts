/**
 * The functions of lib/workers/ (stream workers, the access log's subscriber), run in this process as
 * Lambda runs them: each event in its own invoke context (so its log lines carry its own request id) and
 * with the function's grants only.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import type { Grantee } from '#routes';
import { lambdaContext } from './events.ts';
import { asRoute } from './grants-guard.ts';

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const ROOT = resolve(import.meta.dirname, '../..');
const handlers = new Map<string, Promise<Handler>>();

export async function invokeWorker<Answer>(
  worker: Grantee & { handler: string; timeoutSeconds?: number },
  event: unknown,
): Promise<Answer> {
  let handler = handlers.get(worker.handler);
  if (!handler) {
    handler = import(pathToFileURL(resolve(ROOT, worker.handler)).href).then((m: { handler: Handler }) => m.handler);
    handlers.set(worker.handler, handler);
  }
  const run = await handler;
  const store = await InvokeStore.getInstanceAsync();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: randomUUID() }, () =>
    asRoute(worker, () => run(event, lambdaContext(worker))),
  ) as Promise<Answer>;
}
