/**
 * What a route ships beside its bundle (the route's `files`, lib/routes/): in Lambda, in the task root
 * (infra: ServiceFunction copies it there); elsewhere, where it is in the project. An entry that ends in
 * `/` is a folder: its scripts (`.js`) ship in a folder of its name.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const inProject = (file: string) => fileURLToPath(new URL(`../${file}`, import.meta.url));

export const shippedPath = (file: string): string =>
  process.env.LAMBDA_TASK_ROOT ? join(process.env.LAMBDA_TASK_ROOT, basename(file)) : inProject(file);

/** Each file a route's `files` ship: where it is in the project, and where it goes in the task root. */
export const shippedFiles = (files: readonly string[] = []): { from: string; to: string }[] =>
  files.flatMap((file) =>
    file.endsWith('/')
      ? readdirSync(inProject(file))
          .filter((name) => name.endsWith('.js'))
          .sort()
          .map((name) => ({ from: `${file}${name}`, to: join(basename(file), name) }))
      : [{ from: file, to: basename(file) }],
  );
