/**
 * "The document never lies": every answer the HTTP tests get (through `call`, test/support/api.ts) is
 * checked against the OpenAPI document the API serves — its status declared for that operation, its
 * body valid against that status's schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it), every
 * declared header present. An undocumented status, field or header fails the test that met it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { headers: Record<string, { required?: boolean }> };
}
interface Response {
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, { schema: unknown }>;
}

let loaded: Promise<{ doc: Document; ajv: Ajv2020; templates: { template: string; pattern: RegExp; params: number }[] }> | undefined;

function load(baseUrl: string) {
  loaded ??= (async () => {
    const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc as object, 'openapi');
    // Static segments win over parameters, as in API Gateway.
    const templates = Object.keys(doc.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
    return { doc, ajv, templates };
  })();
  return loaded;
}

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Throws when the answer is not what the served document says this operation answers. */
export async function checkAgainstDocument(
  baseUrl: string,
  method: string,
  url: string,
  answer: { status: number; headers: Headers; body: unknown },
): Promise<void> {
  const { doc, ajv, templates } = await load(baseUrl);
  const path = new URL(url, 'http://x').pathname;
  const template = templates.find((t) => t.pattern.test(path))?.template;
  const operation = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
  // No operation: a path or method no route serves (the not-found envelope, checked by its own tests).
  if (!template || !operation) return;
  const where = `${method} ${template} → ${answer.status}`;
  const response = operation.responses[String(answer.status)];
  if (!response) throw new Error(`the document does not declare ${where}`);
  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    const required = declared.$ref ? doc.components.headers[declared.$ref.split('/').at(-1) as string]?.required : declared.required;
    if (required && !answer.headers.has(name)) throw new Error(`${where}: the declared header ${name} is missing`);
  }
  const media = Object.keys(response.content ?? {})[0];
  if (media && media !== 'application/json') {
    if (!answer.headers.get('content-type')?.startsWith(media)) throw new Error(`${where}: the document declares ${media}`);
    return;
  }
  if (!media) {
    if (answer.body !== undefined) throw new Error(`${where}: the document declares no body, the answer has one`);
    return;
  }
  const ref = `openapi#/paths/${pointer(template)}/${method.toLowerCase()}/responses/${answer.status}/content/${pointer(media)}/schema`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`${where}: no schema at ${ref}`);
  if (!validate(answer.body)) {
    throw new Error(
      `${where}: the body breaks the document: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(answer.body).slice(0, 600)}`,
    );
  }
}
