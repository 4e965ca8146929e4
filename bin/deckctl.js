#!/usr/bin/env node
// Runs the TypeScript CLI in place (no build step): tsx registers the loader for this process.
import { register } from 'tsx/esm/api';

register();
// An operator's tool: no metric lines (embedded metric format) among its output.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Its own lines on stdout (--json: only its answer), not the service's info logs of the code it runs (the catalogue's refresh).
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const { main } = await import('../lib/cli/deckctl.ts');
process.exitCode = await main(process.argv.slice(2));
