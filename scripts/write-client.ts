/**
 * Writes the typed client's generated sources (clients/typescript/src/schema.d.ts and operations.ts) from the OpenAPI
 * document the API serves: `npm run client:generate`. test/client/client-package.test.ts generates them again and fails
 * on any difference, so a change to the document that is not regenerated here is a red CI.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '#docs/openapi.ts';

export const CLIENT_SOURCE_DIR = resolve(import.meta.dirname, '../clients/typescript/src');

/** The header openapi-typescript's output starts with says what wrote it; this says how to write it again. */
const BANNER = '// Generated from the Deck Library OpenAPI document by `npm run client:generate` (openapi-typescript). Do not edit.\n';

/** The operations that take an Idempotency-Key (a create the client sends one with, and may retry after a network error). */
function idempotentCreates(document: ReturnType<typeof openApiDocument>): string[] {
  const creates: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { parameters?: { $ref?: string; name?: string }[] }>)) {
      const names = (operation.parameters ?? []).map((p) => p.name ?? p.$ref?.split('/').pop());
      if (names.includes('Idempotency-Key')) creates.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return creates.sort();
}

/** File name (in clients/typescript/src) → its generated text. */
export async function clientSources(): Promise<Record<string, string>> {
  const document = openApiDocument();
  // openapi-typescript 6 types a license as 3.0 did (url required); 3.1 takes an SPDX identifier instead, as ours has.
  const schema = await openapiTS(document as unknown as OpenAPI3);
  const operations = [
    BANNER,
    '/** The operations (method and path template) that take an Idempotency-Key: the creates the client sends one with. */',
    `export const IDEMPOTENT_CREATES: ReadonlySet<string> = new Set(${JSON.stringify(idempotentCreates(document))});`,
    '',
  ].join('\n');
  return { 'schema.d.ts': BANNER + schema, 'operations.ts': operations };
}

if (process.argv[1] === import.meta.filename) {
  for (const [name, text] of Object.entries(await clientSources())) {
    writeFileSync(resolve(CLIENT_SOURCE_DIR, name), text);
    console.log(`wrote clients/typescript/src/${name}`);
  }
}
