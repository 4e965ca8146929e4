/**
 * How a function's bundle is built, once: the CDK functions (constructs/service-function.ts) and the
 * benchmark's bundles (scripts/bench/) use the same esbuild settings.
 */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { NODE_MAJOR } from './node-version.ts';

const ROOT = resolve(import.meta.dirname, '..');

export const BUNDLE = {
  format: 'esm',
  platform: 'node',
  target: `node${NODE_MAJOR}`,
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  // Module substitutions (infra/aliases/, paths from the project root, where esbuild runs): node:http and
  // node:https through their CommonJS exports (http.cjs says why), and the environment's credentials in
  // place of the SDK's whole provider chain (credentials.ts).
  alias: {
    http: './infra/aliases/http.cjs',
    'node:http': './infra/aliases/http.cjs',
    https: './infra/aliases/https.cjs',
    'node:https': './infra/aliases/https.cjs',
    '@aws-sdk/credential-provider-node': './infra/aliases/credentials.ts',
  },
} as const;

/** How the name of a bundle's folder begins. */
export const BUNDLE_FOLDER_PREFIX = 'bundle.';

/**
 * The folder a handler module's bundle is written to by {@link bundleHandlers}, in the folder it is given: one level
 * down, as the CDK's bundling folder is in its output folder (`bundling-temp-…`), so that the source map's paths, and
 * with them the asset's hash, are the same as NodejsFunction's.
 */
export const bundleFolder = (handler: string): string => `${BUNDLE_FOLDER_PREFIX}${basename(handler).replace(/\.ts$/, '')}`;

/** Every handler module of the project (functions/: one a route or worker). */
export const HANDLERS: readonly string[] = readdirSync(join(ROOT, 'functions'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `functions/${f}`);

/**
 * The bundles of these handler modules (project-relative), each `index.mjs` with its source map in a folder of its own
 * in `outdir` ({@link bundleFolder}), built by one esbuild run: the modules they share (the AWS SDK, lib/) are read
 * and parsed once, not once a function — byte for byte the bundles esbuild makes one at a time (checked by the stack
 * test), 76 of them in about 6 s here against about 85 s for the CDK's NodejsFunction, which runs `npx esbuild` a
 * function. Every module of functions/ is a handler: one that does not build fails every synthesis that bundles.
 */
export function bundleHandlers(handlers: readonly string[], outdir: string): void {
  // esbuild's buildSync throws, naming each error, when a bundle does not build.
  buildSync({
    ...BUNDLE,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    bundle: true,
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(handlers.map((h) => [`${bundleFolder(h)}/index`, h])),
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}
