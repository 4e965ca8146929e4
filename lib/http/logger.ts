import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per process; every line of a request carries its request_id. */
export const logger = new Logger({ serviceName: 'deck-library' });
