/**
 * How a function's bundle is built, once: the CDK functions (constructs/api-function.ts) and the
 * benchmark's bundles (scripts/bench/) use the same esbuild settings.
 */
import { NODE_MAJOR } from './node-version.ts';

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
  // Module substitutions (infra/aliases/, paths from the project root, where the CDK and the benchmark
  // run esbuild): node:http and node:https through their CommonJS exports (http.cjs says why), and the
  // environment's credentials in place of the SDK's whole provider chain (credentials.ts).
  alias: {
    http: './infra/aliases/http.cjs',
    'node:http': './infra/aliases/http.cjs',
    https: './infra/aliases/https.cjs',
    'node:https': './infra/aliases/https.cjs',
    '@aws-sdk/credential-provider-node': './infra/aliases/credentials.ts',
  },
} as const;

/** The same aliases as esbuild command-line arguments (the CDK runs esbuild's CLI). */
export const ALIAS_ARGS = Object.fromEntries(Object.entries(BUNDLE.alias).map(([from, to]) => [`--alias:${from}`, to]));
