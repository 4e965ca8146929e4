/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document, generated from the route table (paths,
 * methods, auth) and the request schemas (bodies, via @valibot/to-json-schema), so it cannot drift
 * from what the API does.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { SCOPES } from '#auth/keys.ts';
import { cacheable } from '#http/cache.ts';
import type { Endpoint } from '#http/types.ts';
import { ROUTES, type Route } from '#routes';
import { CARD_TYPES, RARITIES } from '#rules/card.ts';
import { FIELDS } from '#rules/deck-write.ts';
import { FACTION_IDS, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { ReplaceBody } from '#rules/schemas.ts';

const SUMMARY: Record<string, string> = {
  listDecks: "List the caller's decks",
  readDeck: 'Read one of the caller\'s decks (ETag: "<version>")',
  createDeck: 'Create a deck from a deck code',
  updateDeck: 'Update a deck (If-Match honoured)',
  validateDeck: 'Validate a deck body without saving',
  replaceCards: 'Replace cards in a deck code and get the new code',
  deleteDeck: 'Delete a deck (body {})',
  likeDeck: 'Like a public or unlisted deck (idempotent)',
  unlikeDeck: 'Take a like back (idempotent)',
  searchDecks: 'Search public decks',
  readSharedDeck: 'Read a public or unlisted deck by share slug (counts a view)',
  listCards: 'The card catalogue',
  readCard: 'One card',
  openApi: 'This document',
};

const q = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  ...(description ? { description } : {}),
});
const limit = (fallback: number, max: number) => q('limit', { type: 'integer', minimum: 1, maximum: max, default: fallback });
const page = q('page', { type: 'integer', minimum: 1, default: 1 });
const cursor = q('cursor', { type: 'string' }, 'meta.next_cursor of the previous page');
const QUERY: Record<string, object[]> = {
  listDecks: [limit(50, 100), cursor],
  searchDecks: [
    q('q', { type: 'string', maxLength: 100 }, 'case-insensitive substring of the name or guide.system'),
    q('main_faction', { enum: MAIN_FACTION_IDS }),
    q('ally_faction', { enum: FACTION_IDS }),
    q('tag', { type: 'string', maxLength: 32 }),
    q('sort', { enum: ['date', 'views', 'likes'], default: 'date' }),
    page,
    limit(20, 50),
    cursor,
  ],
  listCards: [
    q('faction', { enum: [...FACTION_IDS, 'neutral'] }),
    q('type', { enum: CARD_TYPES }),
    q('rarity', { enum: RARITIES }),
    q('derived', { enum: ['true', 'false'] }),
    q('q', { type: 'string', maxLength: 100 }),
    page,
    limit(50, 200),
    cursor,
  ],
};

/** JSON Schema of a request schema; our code-point length checks become maxLength. */
const jsonSchema = (schema: v.GenericSchema) =>
  toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    overrideAction: ({ valibotAction, jsonSchema: js }) => {
      const max = /^too_long: at most (\d+) characters$/.exec(String((valibotAction as { message?: unknown }).message ?? ''))?.[1];
      return max ? { ...js, maxLength: Number(max) } : undefined;
    },
  });

const { deck_code, guide, ...rest } = FIELDS;
const optional = Object.fromEntries(Object.entries(rest).map(([k, schema]) => [k, v.optional(schema)]));
const createBody = v.strictObject({ deck_code, guide, ...optional });
const BODY: Record<string, v.GenericSchema> = {
  createDeck: createBody,
  validateDeck: createBody,
  updateDeck: v.partial(v.strictObject(FIELDS)),
  replaceCards: ReplaceBody,
  deleteDeck: v.strictObject({}),
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'invalid_json or invalid_parameter',
  '401': 'unauthorized (no, malformed, unknown or revoked key)',
  '403': 'insufficient_scope or user_mismatch',
  '404': 'deck_not_found, card_not_found or not_found',
  '412': 'precondition_failed',
  '413': 'payload_too_large',
  '415': 'unsupported_media_type',
  '422': 'validation_failed, with details',
  '429': 'rate_limited',
  '500': 'internal_error',
  '503': 'service_unavailable (Retry-After)',
};

function operation(route: Route) {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const body = BODY[route.name];
  const errors = Object.keys(ERROR_STATUSES).filter(
    (s) => (route.scope || !['401', '403', '412'].includes(s)) && (body || !['413', '415', '422'].includes(s)),
  );
  return {
    operationId: route.name,
    summary: SUMMARY[route.name] ?? route.name,
    ...(route.scope
      ? { security: [{ apiKey: [route.scope] }], description: `Needs an API key with the ${route.scope} scope, for the path's user_id.` }
      : { security: [] }),
    parameters: [...params, ...(QUERY[route.name] ?? [])],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body) } } } } : {}),
    responses: {
      [route.name === 'createDeck' ? '201' : '200']: {
        description: 'Success',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
      },
      ...Object.fromEntries(errors.map((s) => [s, { $ref: `#/components/responses/E${s}` }])),
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly Route[]) {
    if (route.path === '$default') continue;
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(route);
  }
  const meta = { type: 'object', properties: { api_version: { const: 'v1' } }, required: ['api_version'] };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Deck Library API',
      version: 'v1',
      description: 'KARDS decks: owners manage them with API keys; anyone reads and searches public ones.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'dlk_<key_id>_<secret>', description: `Scopes: ${SCOPES.join(', ')}` },
      },
      schemas: {
        Success: { type: 'object', properties: { data: {}, meta }, required: ['data', 'meta'] },
        Error: {
          type: 'object',
          required: ['error', 'meta'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                details: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['path', 'code', 'message'],
                    properties: { path: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
                  },
                },
              },
            },
            meta: { ...meta, properties: { ...meta.properties, request_id: { type: 'string' } } },
          },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([s, d]) => [
          `E${s}`,
          { description: d, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
}

let document: ReturnType<typeof openApiDocument> | undefined;
/** The document itself is the body (not enveloped): OpenAPI tools read it as it is. */
export const readOpenApi: Endpoint = async (req) => {
  document ??= openApiDocument();
  return { ...cacheable(req, document), bare: true };
};
