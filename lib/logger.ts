import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per process; every line of a request carries its request_id. */
export const logger = new Logger({ serviceName: 'deck-library' });

/** The most of a request's path a log line holds: a path may be near 10 KB (HTTP API's request line), a line need not. */
export const LOGGED_PATH_CHARS = 256;
/** A request's path as log lines hold it: whole, or its first LOGGED_PATH_CHARS characters and "…". */
export const loggedPath = (path: string | undefined): string | undefined =>
  path && path.length > LOGGED_PATH_CHARS ? `${path.slice(0, LOGGED_PATH_CHARS)}…` : path;
