/**
 * The HTTP API access log's line, in HTTP API's own context variables (the function's own line adds the
 * route name and key id): one declaration for the stage (stack.ts), the local gateway that writes the
 * same lines (local/access-log.ts), and the views counted from them (lib/routes/workers.ts VIEW_SUBSCRIPTION
 * reads routeKey, path and status).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  routeKey: '$context.routeKey',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationErrorMessage: '$context.integrationErrorMessage',
  errorMessage: '$context.error.message',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  requestTime: '$context.requestTimeEpoch',
  protocol: '$context.protocol',
} as const;

/** What the local gateway knows of an answer, by the context variable that names it. */
export type AccessLogValues = Partial<Record<(typeof ACCESS_LOG_FIELDS)[keyof typeof ACCESS_LOG_FIELDS], string>>;

/** An access log line as the stage writes it: every field, '-' where the value is not known. */
export const accessLine = (values: AccessLogValues): Record<string, string> =>
  Object.fromEntries(Object.entries(ACCESS_LOG_FIELDS).map(([field, variable]) => [field, values[variable] ?? '-']));
