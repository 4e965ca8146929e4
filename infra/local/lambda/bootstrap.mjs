// A Lambda runtime for Node, following the Runtime API as AWS documents it ("Using the Lambda runtime API
// for custom runtimes"): load the handler named by _HANDLER from LAMBDA_TASK_ROOT (an init failure is
// posted to /runtime/init/error), then for ever: GET /runtime/invocation/next (the event, and the
// request id, deadline, function ARN and trace id in headers), call the handler, POST its result to
// /runtime/invocation/{id}/response or its error to /runtime/invocation/{id}/error. Lambda's own
// runtime interface client (aws-lambda-ric) does the same; this one needs no native build.
// node:http with no timeout: a call may wait across a freeze (a frozen process's timers do not run).

import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const base = `/2018-06-01/runtime`;
const [host, port] = (process.env.AWS_LAMBDA_RUNTIME_API ?? '').split(':');

function call(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port: Number(port),
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const errorBody = (e) =>
  JSON.stringify({
    errorType: e?.name ?? 'Error',
    errorMessage: e?.message ?? String(e),
    stackTrace: String(e?.stack ?? '')
      .split('\n')
      .slice(1)
      .map((l) => l.trim()),
  });

let handler;
try {
  const [module, name] = (process.env._HANDLER ?? 'index.handler').split('.');
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  const file = ['.mjs', '.js', '.cjs'].map((ext) => join(root, `${module}${ext}`)).find((f) => existsSync(f));
  if (!file) throw Object.assign(new Error(`Cannot find module '${module}'`), { name: 'Runtime.ImportModuleError' });
  handler = (await import(pathToFileURL(file).href))[name];
  if (typeof handler !== 'function')
    throw Object.assign(new Error(`${process.env._HANDLER} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
} catch (e) {
  await call('POST', `${base}/init/error`, errorBody(e), { 'Lambda-Runtime-Function-Error-Type': e?.name ?? 'Error' });
  process.exit(1);
}

for (;;) {
  const next = await call('GET', `${base}/invocation/next`);
  const id = next.headers['lambda-runtime-aws-request-id'];
  const deadline = Number(next.headers['lambda-runtime-deadline-ms']);
  if (next.headers['lambda-runtime-trace-id']) process.env._X_AMZN_TRACE_ID = next.headers['lambda-runtime-trace-id'];
  else delete process.env._X_AMZN_TRACE_ID;
  const context = {
    awsRequestId: id,
    invokedFunctionArn: next.headers['lambda-runtime-invoked-function-arn'],
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const result = await handler(JSON.parse(next.body), context);
    await call('POST', `${base}/invocation/${id}/response`, JSON.stringify(result ?? null));
  } catch (e) {
    await call('POST', `${base}/invocation/${id}/error`, errorBody(e), { 'Lambda-Runtime-Function-Error-Type': e?.name ?? 'Error' });
  }
}
