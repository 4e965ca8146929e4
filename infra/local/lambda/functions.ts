/**
 * The functions as `cdk deploy` ships them: the app synthesised (infra/app.ts, the same bundling), and
 * each function's configuration read back from the template (its nested stacks' with it: infra/template.ts) — its bundle directory (Lambda's /var/task),
 * handler, memory, timeout, environment (table references resolved to this machine's tables, the queue's
 * to the local queue's URL, /var/task to the bundle directory, the bulk files' bucket and origin to what the runtime
 * gives) and whether it has layers (an extension registered).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TableDef, tableName } from '#store/tables.ts';
import { readStack } from '../../template.ts';
import type { FunctionConfig } from './environment.ts';

const pascal = (name: string) => `${name[0]?.toUpperCase()}${name.slice(1)}`;
const STACK = 'DeckLibrary';
const TEMPLATE = `${STACK}.template.json`;

/** Synthesises the app into a new directory (about 18 s here: every function bundled), unless `dir` holds a synthesis already. */
export async function synthesised(dir?: string): Promise<string> {
  if (dir && existsSync(join(dir, TEMPLATE))) return dir;
  const outdir = dir ?? mkdtempSync(join(tmpdir(), 'deck-library-lambda-'));
  const [{ App }, { buildApp }] = await Promise.all([import('aws-cdk-lib'), import('../../app.ts')]);
  const { app } = buildApp(new App({ outdir }), { guard: false });
  app.synth();
  return outdir;
}

interface Resource {
  Type: string;
  Properties: {
    Handler: string;
    MemorySize?: number;
    Timeout?: number;
    Layers?: unknown[];
    Code: { S3Key: string };
    Environment?: { Variables?: Record<string, unknown> };
  };
}

/** Each function of a synthesis by its service name (route, worker or subscriber), configured for this machine. */
export function functionConfigs(
  outdir: string,
  names: readonly string[],
  tables: readonly TableDef[],
  queueUrl = '',
  given: Readonly<Record<string, string>> = {},
): Map<string, FunctionConfig> {
  // The stack and its nested stacks as one template: a function's references resolved to the parent's tables and queue.
  const resources = readStack(outdir, STACK).merged.Resources as Record<string, Resource>;
  const tableRefs = new Map(
    Object.keys(resources).flatMap((id) => {
      const def = tables.find((t) => resources[id]?.Type === 'AWS::DynamoDB::GlobalTable' && id.startsWith(`${pascal(t.id)}Table`));
      return def ? [[id, tableName(def)] as const] : [];
    }),
  );
  const configs = new Map<string, FunctionConfig>();
  for (const name of names) {
    const id = Object.keys(resources).find(
      (r) => resources[r]?.Type === 'AWS::Lambda::Function' && r.startsWith(`${pascal(name)}Function`),
    );
    if (!id) throw new Error(`no function for ${name} in the synthesised template`);
    const p = (resources[id] as Resource).Properties;
    const taskRoot = join(outdir, `asset.${p.Code.S3Key.replace(/\.zip$/, '')}`);
    const environment = Object.fromEntries(
      Object.entries(p.Environment?.Variables ?? {}).map(([k, v]) => {
        // What this machine gives in place of the stack's (the bulk files' bucket of its stand-in, its own origin).
        if (given[k] !== undefined) return [k, given[k]];
        if (typeof v === 'string') return [k, v.startsWith('/var/task/') ? join(taskRoot, v.slice('/var/task/'.length)) : v];
        const ref = (v as { Ref?: string }).Ref;
        if (ref && resources[ref]?.Type === 'AWS::SQS::Queue' && queueUrl) return [k, queueUrl];
        const table = ref && tableRefs.get(ref);
        if (!table) throw new Error(`${name}: ${k} is not a value this runtime can resolve`);
        return [k, table];
      }),
    );
    configs.set(name, {
      name,
      taskRoot,
      handler: p.Handler,
      memoryMb: p.MemorySize ?? 128,
      timeoutS: p.Timeout ?? 3,
      environment,
      extensions: (p.Layers?.length ?? 0) > 0,
    });
  }
  return configs;
}
