/**
 * A synthesised stack read back as one template: its own resources and its nested stacks' (infra/stack.ts
 * puts the functions in nested stacks), each nested stack's parameters replaced by what the parent passes
 * and each of its outputs the parent reads replaced by its value — so that a reader (the local runtime,
 * the tests, the cost models) sees a function's table, queue or API as the one resource it is, wherever it
 * was declared. And each template's own resource count: CloudFormation's 500 is a stack's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CfnResource {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
  Properties?: Record<string, any>;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
  Metadata?: Record<string, any>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
  Parameters?: Record<string, unknown>;
}

export interface StackTemplates {
  /** Every resource of the stack and its nested stacks (the nested stacks' own resources left out). */
  merged: CfnTemplate;
  /** Each template as synthesised: the stack's first, then its nested stacks'. */
  files: { file: string; resources: number }[];
}

const NESTED = 'AWS::CloudFormation::Stack';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `node` with each `Ref` to a parameter of `params` and each `GetAtt` of a nested stack's output replaced by its value. */
function substitute(node: unknown, params: ReadonlyMap<string, unknown>, outputs: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (Array.isArray(node)) return node.map((v) => substitute(v, params, outputs));
  if (!isObject(node)) return node;
  const keys = Object.keys(node);
  if (keys.length === 1 && typeof node.Ref === 'string' && params.has(node.Ref)) return params.get(node.Ref);
  const att = node['Fn::GetAtt'];
  if (keys.length === 1 && Array.isArray(att) && outputs.has(att[0]) && String(att[1]).startsWith('Outputs.')) {
    const name = String(att[1]).slice('Outputs.'.length);
    const value = outputs.get(att[0])?.[name];
    if (value === undefined) throw new Error(`nested stack ${att[0]} has no output ${name}`);
    return value;
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, params, outputs)]));
}

/** Reads a synthesised stack (`dir` a cloud assembly, `stackName` its stack) as one template. */
export function readStack(dir: string, stackName: string): StackTemplates {
  // Where each nested template is: the assets manifest names the file of each object key the parent's TemplateURL holds.
  const assets = JSON.parse(readFileSync(join(dir, `${stackName}.assets.json`), 'utf8')) as {
    files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
  };
  const fileOfKey = new Map(
    Object.values(assets.files).flatMap((a) => Object.values(a.destinations).map((d) => [d.objectKey, a.source.path] as const)),
  );
  const files: StackTemplates['files'] = [];
  const merged: Record<string, CfnResource> = {};

  const load = (file: string, params: ReadonlyMap<string, unknown>): CfnTemplate['Outputs'] => {
    const template = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CfnTemplate;
    files.push({ file, resources: Object.keys(template.Resources).length });
    if (params.size > 0)
      for (const name of Object.keys(template.Parameters ?? {}))
        if (!params.has(name)) throw new Error(`${file}: its parameter ${name} is not passed`);
    const resources = substitute(template.Resources, params, new Map()) as Record<string, CfnResource>;
    // The nested stacks, each once the nested stacks whose outputs it is passed are read.
    const outputs = new Map<string, Record<string, unknown>>();
    const within = new Map<string, string[]>();
    let pending = Object.keys(resources).filter((id) => resources[id]?.Type === NESTED);
    while (pending.length > 0) {
      const ready = pending.filter(
        (id) => !pending.some((other) => JSON.stringify(resources[id]?.Properties?.Parameters ?? {}).includes(`"${other}"`)),
      );
      if (ready.length === 0) throw new Error(`${file}: nested stacks pass each other outputs in a circle: ${pending.join(', ')}`);
      for (const id of ready) {
        const nested = resources[id] as CfnResource;
        const key = /\/([^/"]+\.json)"/.exec(JSON.stringify(nested.Properties?.TemplateURL))?.[1];
        const nestedFile = key && fileOfKey.get(key);
        if (!nestedFile) throw new Error(`${file}: no template for nested stack ${id}`);
        const passed = substitute(nested.Properties?.Parameters ?? {}, new Map(), outputs) as Record<string, unknown>;
        const before = new Set(Object.keys(merged));
        const nestedOutputs = load(nestedFile, new Map(Object.entries(passed)));
        within.set(
          id,
          Object.keys(merged).filter((r) => !before.has(r)),
        );
        outputs.set(id, Object.fromEntries(Object.entries(nestedOutputs ?? {}).map(([name, o]) => [name, o.Value])));
      }
      pending = pending.filter((id) => !ready.includes(id));
    }
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type === NESTED) continue;
      if (id in merged) throw new Error(`${file}: ${id} is also a resource of another template`);
      const r = substitute(resource, new Map(), outputs) as CfnResource;
      // Waiting for a nested stack is waiting for every resource in it.
      if (r.DependsOn) r.DependsOn = [r.DependsOn].flat().flatMap((d) => within.get(d) ?? [d]);
      merged[id] = r;
    }
    return substitute(template.Outputs ?? {}, params, outputs) as CfnTemplate['Outputs'];
  };

  const stackFile = `${stackName}.template.json`;
  const parent = JSON.parse(readFileSync(join(dir, stackFile), 'utf8')) as CfnTemplate;
  const Outputs = load(stackFile, new Map());
  // Every reference left names a resource, a parameter of the stack's own, or a pseudo parameter: none dangles.
  const names = new Set([...Object.keys(merged), ...Object.keys(parent.Parameters ?? {})]);
  const dangling = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      if (typeof node.Ref === 'string' && !node.Ref.startsWith('AWS::') && !names.has(node.Ref)) dangling.add(node.Ref);
      const att = node['Fn::GetAtt'];
      if (Array.isArray(att) && !names.has(String(att[0]))) dangling.add(String(att[0]));
      Object.values(node).forEach(walk);
    }
  };
  walk(merged);
  walk(Outputs);
  if (dangling.size > 0) throw new Error(`${stackName}: references to nothing: ${[...dangling].join(', ')}`);
  return {
    merged: { Resources: merged, ...(Outputs ? { Outputs } : {}), ...(parent.Parameters ? { Parameters: parent.Parameters } : {}) },
    files,
  };
}
