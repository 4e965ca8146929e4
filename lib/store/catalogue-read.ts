/**
 * The published catalogue, read (contract §11.5; its items: items/catalogue.ts) by every function that uses the
 * catalogue — most of which read nothing else of the store. So not through the SDK (about 200 KB of bundle and
 * tens of milliseconds of a cold start: the bench) but as two signed requests of DynamoDB's JSON protocol
 * (DynamoDB developer guide, "DynamoDB low-level API": a POST to /, Content-Type application/x-amz-json-1.0,
 * X-Amz-Target DynamoDB_20120810.GetItem, signed with Signature Version 4), signed by aws4fetch with the
 * function's credentials from its environment, as Lambda sets them (Lambda developer guide, "Defined runtime
 * environment variables": AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN — the access keys
 * obtained from the function's execution role — and AWS_REGION); DYNAMODB_ENDPOINT points them at DynamoDB
 * Local, which tests them.
 * The pointer is one small GetItem, eventually consistent; a new version's parts, written before the pointer, are
 * read strongly consistent, and their text is checked against the version (a hash of it) before it is used.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { CATALOGUE, CATALOGUE_FROM, type CatalogueNow, catalogueNowKey } from './items/catalogue.ts';
import { signer } from './signer.ts';
import { DECKS, tableName } from './tables.ts';

type Action = 'GetItem' | 'Query';
type AttributeValue = { S?: string; N?: string; B?: string; L?: AttributeValue[] };
type Item = Record<string, AttributeValue>;
export interface SignedInput {
  TableName: string;
  Key?: { pk: string; sk: string };
  KeyConditionExpression?: string;
  ExpressionAttributeValues?: Record<string, string>;
}

/**
 * What sees each request before it is sent (the local runtime's grants guard, infra/local/grants-guard.ts, as it
 * sees the SDK's): it may refuse one by throwing.
 */
export const signedRequests: { check?: (action: Action, input: SignedInput) => void } = {};

/**
 * How a read waits: given one attempt (a request, its answer, under a signal that ends it), the whole read. A glance
 * (the pointer's check, a new version's text): one attempt of 1 s — a slow store leaves the catalogue at hand in use,
 * it does not hold up the answer. A read the answer needs waits longer (store/needed.ts: only the function that needs
 * it carries it).
 */
export type Wait = <T>(attempt: (signal: AbortSignal) => Promise<T>) => Promise<T>;
export const glance: Wait = (attempt) => attempt(AbortSignal.timeout(1_000));

/** The version of a catalogue's text (what its ETags and image URLs carry): a hash of it. */
export const versionOf = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** DynamoDB's error answer as the SDK would throw it: named by its type, with its status (so faults.ts can judge it). */
function storeError(action: Action, status: number, text: string) {
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    answer = { message: text.slice(0, 200) };
  }
  const type = String(answer.__type ?? '');
  const message = String(answer.message ?? answer.Message ?? '');
  return Object.assign(new Error(`DynamoDB ${action} answered ${status}: ${type} ${message}`.trim()), {
    name: type.split('#').at(-1) || 'Error',
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  });
}

async function attempt(
  action: Action,
  input: SignedInput,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  signedRequests.check?.(action, input);
  const local = process.env.DYNAMODB_ENDPOINT;
  const { client, region } = signer('dynamodb', local, 'read the published catalogue', 0);
  const res = await client.fetch(local ?? `https://dynamodb.${region}.amazonaws.com/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${action}` },
    body: JSON.stringify({ ...input, ...body }),
    signal,
  });
  // An error answer may not be DynamoDB's JSON (a gateway's HTML 502): its status still says what it is.
  if (!res.ok) throw storeError(action, res.status, await res.text());
  return (await res.json()) as Record<string, unknown>;
}

const send = (action: Action, input: SignedInput, body: Record<string, unknown>, wait: Wait) =>
  wait((signal) => attempt(action, input, body, signal));

const typed = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, s]) => [k, { S: s }]));

/** A version's facts as an item holds them (the pointer, or its place in the history). */
const nowOf = (item: Item): CatalogueNow => ({
  version: item.version?.S ?? '',
  parts: Number(item.parts?.N),
  bytes: Number(item.bytes?.N),
  cards: Number(item.cards?.N),
  languages: (item.languages?.L ?? []).map((l) => l.S ?? ''),
  published_at: item.published_at?.S ?? '',
});

/** The published version's facts, or none (nothing published yet). */
export async function readCatalogueNow(wait: Wait): Promise<CatalogueNow | undefined> {
  const input = { TableName: tableName(DECKS), Key: catalogueNowKey };
  const { Item: item } = (await send('GetItem', input, { Key: typed(catalogueNowKey) }, wait)) as { Item?: Item };
  return item ? nowOf(item) : undefined;
}

/** The first (or, `latest`, the last) version of the history whose key is within the bounds, or none: one small item read. */
async function historyEdge(from: string, to: string, latest: boolean, wait: Wait): Promise<CatalogueNow | undefined> {
  const values = { ':pk': CATALOGUE.pk(''), ':from': from, ':to': to };
  const input = {
    TableName: tableName(DECKS),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: values,
  };
  const page = (await send('Query', input, { ExpressionAttributeValues: typed(values), ScanIndexForward: !latest, Limit: 1 }, wait)) as {
    Items?: Item[];
  };
  const item = page.Items?.[0];
  return item ? nowOf(item) : undefined;
}

/**
 * The version in force at an instant (contract §13.4, the card pool of a date): the last published at or before it;
 * before the first the history keeps, that first one; with none kept (a store published before versions were kept),
 * the one published now; none when nothing was ever published (the bundled catalogue is in force).
 */
export async function readCatalogueAt(at: Date, wait: Wait): Promise<CatalogueNow | undefined> {
  // Keys are FROM#<ISO time>#<version>: every version published up to `at` sorts at or below `FROM#<at>#~`.
  return (
    (await historyEdge(CATALOGUE_FROM, `${CATALOGUE_FROM}${at.toISOString()}#~`, true, wait)) ??
    (await historyEdge(CATALOGUE_FROM, `${CATALOGUE_FROM}~`, false, wait)) ??
    (await readCatalogueNow(wait))
  );
}

/**
 * A published version that is not the catalogue it names (parts missing, another text, not gzip): a version is
 * its text's hash and its parts are written before the pointer names it, so reading it again will not mend it.
 */
export class BrokenCatalogue extends Error {}

/** A version's text: its parts, joined, gunzipped and checked against the version (else BrokenCatalogue). */
export async function readCatalogueText(now: CatalogueNow, wait: Wait): Promise<string> {
  const values = { ':pk': CATALOGUE.pk(now.version) };
  const input = { TableName: tableName(DECKS), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: values };
  const parts: Buffer[] = [];
  let start: unknown;
  do {
    const page = (await send(
      'Query',
      input,
      { ExpressionAttributeValues: typed(values), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) },
      wait,
    )) as { Items?: Item[]; LastEvaluatedKey?: unknown };
    for (const item of page.Items ?? []) parts.push(Buffer.from(item.data?.B ?? '', 'base64'));
    start = page.LastEvaluatedKey;
  } while (start);
  return textOfParts(now, parts);
}

/** A version's text from its parts (all of them, in order), checked against the version (else BrokenCatalogue). */
export function textOfParts(now: CatalogueNow, parts: readonly Buffer[]): string {
  if (parts.length !== now.parts) throw new BrokenCatalogue(`catalogue ${now.version}: ${parts.length} parts of ${now.parts}`);
  let text: string;
  try {
    text = gunzipSync(Buffer.concat(parts)).toString('utf8');
  } catch (e) {
    throw new BrokenCatalogue(`catalogue ${now.version}: its parts are not gzip (${(e as Error).message})`);
  }
  if (versionOf(text) !== now.version)
    throw new BrokenCatalogue(`catalogue ${now.version}: its parts are another text (${versionOf(text)})`);
  return text;
}
