/**
 * How a function's bundle is built, once: the CDK functions (constructs/api-function.ts) and the
 * benchmark's bundles (scripts/bench.ts) use the same esbuild settings.
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
} as const;
