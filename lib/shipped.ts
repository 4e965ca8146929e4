/**
 * A file a route ships beside its bundle (the route's `files`, lib/routes/): in Lambda, in the task
 * root (infra: ServiceFunction copies it there); elsewhere, where it is in the project.
 */
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const shippedPath = (file: string): string =>
  process.env.LAMBDA_TASK_ROOT ? join(process.env.LAMBDA_TASK_ROOT, basename(file)) : fileURLToPath(new URL(`../${file}`, import.meta.url));
