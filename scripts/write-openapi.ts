/** Writes the OpenAPI document the API serves (GET /api/v1/openapi.json) to a file, for the linters and generators. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openApiDocument } from '#docs/openapi.ts';

const out = resolve(process.argv[2] ?? '.openapi/openapi.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
