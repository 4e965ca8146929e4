/**
 * The OpenAPI 3.1 document (contract §8.4), generated: paths, methods and security from the route
 * table; bodies, queries, answers and headers from the declared shapes (responses.ts, queries.ts,
 * errors.ts, lib/routes/). Every status an operation can answer is listed with its concrete body —
 * the envelope with the exact data and meta, or the error envelope with the codes that status can
 * carry there — so the document cannot say less, or other, than the code does.
 */
import { type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { MAX_BODY_BYTES } from '#http/body.ts';
import { ROUTES } from '#routes';
import type { PathParam } from '#routes/params.ts';
import type { ApiRoute, HtmlErrorStatus, RawBody, RequestHeader, ResponseHeader } from '#routes/route.ts';
import { paramNames, refusesBody, TAGS } from '#routes/route.ts';
import { SCOPES } from '#rules/scopes.ts';
import { ERROR_CODES, type ErrorCode, ErrorEnvelope, type ErrorStatus, ThrottledByGateway } from '#shapes/errors.ts';
import { COMPONENTS, SHAPES } from '#shapes/named.ts';
import * as S from '#shapes/responses.ts';

/** Named shapes, referenced from operations as #/components/schemas/<name> (lib/shapes/named.ts: one registry). */
const DEFS = COMPONENTS;

const components = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

/** A shape as JSON Schema (2020-12, OpenAPI 3.1's dialect); our code-point length checks become maxLength. */
function json(schema: v.GenericSchema, typeMode: 'input' | 'output', named = true): JsonSchema {
  const out = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    ...(named ? { definitions: DEFS } : {}),
    // A shape that says what the document shows of it (a query parameter's form reused in a body: queries.ts `described`).
    overrideSchema: ({ valibotSchema }) => declaredSchema(valibotSchema as v.GenericSchema),
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const max = /^too_long: at most (\d+) characters$/.exec(String((valibotAction as { message?: unknown }).message ?? ''))?.[1];
      return max ? { ...jsonSchema, maxLength: Number(max) } : undefined;
    },
  });
  // The named shapes are in components.schemas once, not repeated in every schema that uses them.
  const { $schema: _dialect, $defs: _named, ...rest } = out as JsonSchema & { $schema?: string; $defs?: unknown };
  return components(rest) as JsonSchema;
}

/** What a shape's declaration says the document shows of it (queries.ts `described`), if it says. */
function declaredSchema(outer: v.GenericSchema): JsonSchema | undefined {
  const schema = (outer as { wrapped?: v.GenericSchema }).wrapped ?? outer;
  const meta = ((schema as { pipe?: { type: string; metadata?: { openapi?: JsonSchema } }[] }).pipe ?? []).find(
    (p) => p.type === 'metadata' && p.metadata?.openapi !== undefined,
  );
  return meta?.metadata?.openapi;
}

/** A query parameter's schema: what its declaration says of it (queries.ts), else its converted shape. */
function parameterSchema(schema: v.GenericSchema): JsonSchema {
  return declaredSchema(schema) ?? json((schema as { wrapped?: v.GenericSchema }).wrapped ?? schema, 'input', false);
}

const HEADER_DOCS: Record<ResponseHeader | 'X-Request-Id' | 'X-Content-Type-Options' | 'Retry-After' | 'WWW-Authenticate', object> = {
  'X-Request-Id': {
    description: 'The request id; also in the error envelope and in the log lines of the request.',
    schema: { type: 'string' },
  },
  'X-Content-Type-Options': { description: 'Always nosniff.', schema: { const: 'nosniff' } },
  ETag: {
    description: 'A strong validator: the deck version ("<version>") on owner decks, a content hash elsewhere.',
    schema: { type: 'string' },
  },
  Location: {
    description:
      'Where the answer sends the client: the new deck (/api/v1/users/{user_id}/decks/{deck_id}) after a create; the canonical URL after a 308.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'How long the answer may be cached.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: 'true when the answer repeats that of an earlier request with the same Idempotency-Key (absent otherwise).',
    required: false,
    schema: { const: 'true' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'Content-Security-Policy': {
    description: "What the page may load and run: only this API's own scripts, nothing inline but the page's hashed scripts, never framed.",
    schema: { type: 'string' },
  },
  'X-Frame-Options': {
    description: 'DENY: the page is never framed (as frame-ancestors says to browsers that read CSP).',
    schema: { const: 'DENY' },
  },
  'Content-Encoding': {
    description: 'br or gzip when the request allowed it (Accept-Encoding); absent otherwise.',
    required: false,
    schema: { enum: ['br', 'gzip'] },
  },
  Vary: { description: 'What the body depends on besides the URL: Accept-Encoding, or Accept-Language.', schema: { type: 'string' } },
  'Content-Language': {
    description:
      "The answer's language (lang, else the best of Accept-Language among the 12 served, else en): its labels and faction names are in it; its card names too where the catalogue names its cards in it, else in English, and then it is a list: `ja, en`.",
    schema: { type: 'string' },
  },
  'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
};
/** Response headers, each declared once in components.headers and referenced; all required where listed. */
const used = new Set<keyof typeof HEADER_DOCS>();
const headers = (names: (keyof typeof HEADER_DOCS)[]) =>
  Object.fromEntries(
    (['X-Request-Id', 'X-Content-Type-Options', ...names] as (keyof typeof HEADER_DOCS)[]).map((n) => {
      used.add(n);
      return [n, { $ref: `#/components/headers/${n}` }];
    }),
  );

const REQUEST_HEADERS: Record<RequestHeader, object> = {
  'If-Match': {
    description: 'The deck version the change is for ("<version>", as its ETag); another version is 412.',
    schema: { type: 'string' },
  },
  'If-None-Match': {
    description: 'An ETag from an earlier answer: unchanged, the answer is 304 with no body.',
    schema: { type: 'string' },
  },
  'Idempotency-Key': {
    description: '1–255 visible ASCII characters, scoped to the account, remembered 24 hours: a repeat answers what the first did.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  },
};

const MESSAGES: Partial<Record<ErrorStatus, string>> = {
  400: 'The body is not a JSON object, or a query parameter is not valid',
  401: 'No key, or a malformed, unknown or revoked one',
  403: "The key lacks the route's scope, or the path's user_id is not the key's account",
  404: 'Not found',
  409: 'The Idempotency-Key was used with another body',
  412: 'If-Match names another version of the deck',
  413: 'The body is over 128 KiB',
  415: 'The body is not sent in the media type the route reads (application/json, or text/plain; UTF-8), or this route takes no body and one was sent',
  422: 'The body breaks rules: every failing rule is in details',
  500: 'A fault on our side; the request id identifies it',
  503: 'The store is busy, unreachable or slow: retry after Retry-After seconds',
};

/** The error codes a route can answer, by status: from what the route is (route table) and what it declares. */
export function errorsOf(route: ApiRoute): Map<ErrorStatus, ErrorCode[]> {
  const codes = new Set<ErrorCode>(['internal_error']);
  if (route.scope || route.keyFor) for (const c of ['unauthorized', 'insufficient_scope', 'user_mismatch'] as const) codes.add(c);
  if (route.body)
    for (const c of ['invalid_json', 'payload_too_large', 'unsupported_media_type', 'validation_failed'] as const) codes.add(c);
  // A raw body: its size is checked first; only a text body's media type is (a signed one's is not looked at).
  if (route.rawBody) codes.add('payload_too_large');
  if (route.rawBody === 'text/plain') codes.add('unsupported_media_type');
  if (refusesBody(route)) codes.add('unsupported_media_type');
  // Every route refuses a query that is not text (lib/http/stack.ts checkQueryText), whether it declares one or not.
  codes.add('invalid_parameter');
  if (route.scope || route.grants.length > 0) codes.add('service_unavailable');
  for (const c of route.errors ?? []) codes.add(c);
  const out = new Map<ErrorStatus, ErrorCode[]>();
  for (const [status, list] of Object.entries(ERROR_CODES)) {
    const here = (list as readonly ErrorCode[]).filter((c) => codes.has(c));
    if (here.length) out.set(Number(status) as ErrorStatus, here);
  }
  return out;
}

const JSON_TYPE = 'application/json';

/** A raw body as the document declares it: a text of at most 128 KiB, or a signed JSON object. */
const RAW_BODIES: Record<RawBody, Record<string, { schema: Record<string, unknown> }>> = {
  'text/plain': { 'text/plain': { schema: { type: 'string', minLength: 1, maxLength: MAX_BODY_BYTES } } },
  'signed-json': { [JSON_TYPE]: { schema: { type: 'object' } } },
};

/** What a page for people answers as a page (its route's htmlErrors), said in the document. */
const HTML_ERRORS: Record<HtmlErrorStatus, string> = {
  400: 'The deck code does not parse, or a query parameter is not valid: a page saying what is wrong and where',
  404: 'No public or unlisted deck has this slug (private, unknown or malformed): a page saying so',
};

/**
 * A query parameter with values to pick from and no default: declared as an example that is off. An
 * interactive reference (the docs page's Scalar) otherwise sends such a parameter with its first value
 * in "try it" — a search for germany / germany, which no deck can match (scalar/scalar#7803: optional
 * parameters start ticked; an example marked `x-disabled` starts unticked). A parameter with no values
 * to pick (free text) starts empty, so unticked; one with a default sends what the server would assume.
 */
const offUntilPicked = (schema: JsonSchema) => {
  const values = (schema as { enum?: unknown[] }).enum ?? (schema as { items?: { enum?: unknown[] } }).items?.enum;
  if (!values?.length || (schema as { default?: unknown }).default !== undefined) return {};
  return { examples: { default: { summary: 'Not sent unless ticked', value: values[0], 'x-disabled': true } } };
};

/** A non-JSON body's schema: text, or bytes (an image: OpenAPI 3.1 names the media type of a string's content). */
const textOrBytes = (contentType: string) =>
  contentType.startsWith('image/') ? { type: 'string', contentMediaType: contentType } : { type: 'string' };

function operation(route: ApiRoute) {
  // Each path parameter as its declaration says (lib/routes/params.ts): its pattern, an example to try.
  const params = paramNames(route.path).map((name) => {
    const param = (route.params as Record<string, PathParam<unknown>> | undefined)?.[name];
    return {
      name,
      in: 'path',
      required: true,
      ...(param ? { description: param.description } : {}),
      schema: { type: 'string', ...(param ? { pattern: param.pattern } : {}) },
      ...(param ? { example: param.example } : {}),
    };
  });
  const query = Object.entries(route.query?.entries ?? {}).map(([name, schema]) => {
    const json = parameterSchema(schema as v.GenericSchema);
    // Required unless its schema lets it be absent (every parameter but the diff's from and to).
    const required = !['optional', 'nullish'].includes((schema as { type: string }).type);
    return { name, in: 'query', required, schema: json, ...(required ? {} : offUntilPicked(json)) };
  });
  const requestHeaders = (route.requestHeaders ?? []).map((name) => ({ name, in: 'header', required: false, ...REQUEST_HEADERS[name] }));
  const { success } = route;
  const body = success.bare
    ? json(SHAPES[success.data], 'output')
    : {
        type: 'object',
        additionalProperties: false,
        required: ['data', 'meta'],
        properties: { data: json(SHAPES[success.data], 'output'), meta: json(success.meta ? SHAPES[success.meta] : S.Meta, 'output') },
      };
  const responses: Record<string, unknown> = {
    [success.status]: {
      description: success.status === 201 ? 'Created' : 'OK',
      headers: headers(success.headers ?? []),
      content: {
        [success.contentType ?? JSON_TYPE]: success.contentType ? { schema: textOrBytes(success.contentType) } : { schema: body },
      },
    },
  };
  if (success.conditional)
    responses['304'] = { description: 'Not modified (If-None-Match matched): no body', headers: headers(['ETag', 'Cache-Control']) };
  for (const status of route.htmlErrors ?? [])
    responses[status] = {
      description: HTML_ERRORS[status],
      headers: headers(['Cache-Control', 'Content-Security-Policy', 'X-Frame-Options']),
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  if (route.redirects)
    responses['308'] = {
      description:
        'The path parameter is not in its canonical form: the same route with the canonical one is in Location (query kept). Follow it; caches then hold one copy.',
      headers: headers(['Location', 'Cache-Control']),
      content: { 'text/plain': { schema: { type: 'string' } } },
    };
  for (const [status, codes] of errorsOf(route)) {
    if (route.htmlErrors?.includes(status as HtmlErrorStatus)) continue;
    responses[status] = {
      description: `${MESSAGES[status]} (${codes.join(', ')})`,
      headers: headers(status === 503 ? ['Retry-After'] : status === 401 ? ['WWW-Authenticate'] : []),
      content: { [JSON_TYPE]: { schema: json(ErrorEnvelope(codes as [string, ...string[]]), 'output') } },
    };
  }
  responses['429'] = {
    description:
      "Throttled by API Gateway (the stage's or the route's rate limit). This body is API Gateway's own, not the error envelope.",
    content: { [JSON_TYPE]: { schema: json(ThrottledByGateway, 'output', false) } },
  };
  return {
    operationId: route.name,
    summary: route.summary,
    ...(route.description || route.scope
      ? {
          description: [route.description, route.scope && `Needs an API key with the ${route.scope} scope, for the path's user_id.`]
            .filter(Boolean)
            .join(' '),
        }
      : {}),
    tags: [route.tag],
    // An http bearer scheme takes no scopes in the requirement list: the scope is named in the description and here.
    // A key for part of a public route's answer: none, or one (an empty requirement makes it optional).
    security: route.scope ? [{ apiKey: [] }] : route.keyFor ? [{}, { apiKey: [] }] : [],
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    ...(route.keyFor ? { 'x-optional-scope': route.keyFor } : {}),
    parameters: [...params, ...query, ...requestHeaders],
    ...(route.body
      ? { requestBody: { required: true, content: { [JSON_TYPE]: { schema: json(SHAPES[route.body], 'input', false) } } } }
      : route.rawBody
        ? { requestBody: { required: true, content: RAW_BODIES[route.rawBody] } }
        : {}),
    responses,
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly (ApiRoute | (typeof ROUTES)[number])[]) {
    if (!('success' in route)) continue;
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Deck Library API',
      version: S.API_VERSION,
      description:
        "KARDS decks: owners manage theirs with API keys; anyone reads and searches public ones. Every answer is JSON with an X-Request-Id; errors come in one envelope, { error: { code, message, details? }, meta: { api_version, request_id } }. A typed TypeScript client made from this document (retries, pagination, ETag revalidation) is the project's clients/typescript (@deck-library/client).",
      contact: { name: 'Deck Library' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This API (the host that serves this document)' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'dlk_<key_id>_<secret>',
          description: `API keys; scopes: ${SCOPES.join(', ')}`,
        },
      },
      headers: Object.fromEntries([...used].map((n) => [n, { required: true, ...HEADER_DOCS[n] }])),
      schemas: components(toJsonSchemaDefs(DEFS, { target: 'draft-2020-12', typeMode: 'output', errorMode: 'ignore' })) as Record<
        string,
        JsonSchema
      >,
    },
  };
}
