#!/usr/bin/env node
// Runs the TypeScript CLI in place (no build step): tsx registers the loader for this process.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli/deckctl.ts');
process.exitCode = await main(process.argv.slice(2));
