/**
 * A catalogue published (contract §11.5; its items: items/catalogue.ts): a version's parts first, then the pointer,
 * on the condition that it still names the version the refresh compared with — two refreshes at once publish
 * once, and a function never reads a pointer whose parts are not all written. With the pointer, the version's item in
 * the history of versions in force (the card pool of a date: catalogue-read.ts readCatalogueAt). A part written again is the same
 * bytes (its version is the hash of the text), so a refresh that fails half way and runs again is harmless.
 */
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { textOfParts, versionOf } from './catalogue-read.ts';
import { documentClient, transact } from './client.ts';
import {
  CATALOGUE,
  type CatalogueHeld,
  type CatalogueNow,
  catalogueFromKey,
  catalogueHeldKey,
  catalogueNowKey,
  cataloguePartKey,
  PART_BYTES,
} from './items/catalogue.ts';
import { DECKS, tableName } from './tables.ts';

/**
 * The published version's facts, read strongly consistent (the refresh compares with the newest), through the SDK:
 * the refresh runs in a function with the SDK, or in `deckctl` with the AWS credential chain (catalogue-read.ts
 * signs with the environment's credentials only, as Lambda gives them).
 */
export async function publishedCatalogue(): Promise<CatalogueNow | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: catalogueNowKey, ConsistentRead: true }));
  return Item as CatalogueNow | undefined;
}

/** The published version's text, read through the SDK (strongly consistent, every page; checked against its version). */
export async function publishedText(now: CatalogueNow): Promise<string> {
  const parts: Buffer[] = [];
  const input = {
    TableName: tableName(DECKS),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': CATALOGUE.pk(now.version) },
    ConsistentRead: true,
  };
  for await (const page of paginateQuery({ client: documentClient() }, input))
    for (const item of page.Items ?? []) parts.push(Buffer.from(item.data as Uint8Array));
  return textOfParts(now, parts);
}

/** The version a refresh held back, if any. */
export async function heldCatalogue(): Promise<CatalogueHeld | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(DECKS), Key: catalogueHeldKey, ConsistentRead: true }),
  );
  return Item as CatalogueHeld | undefined;
}

/** Records a version held back (over the one a refresh held before). */
export async function holdCatalogue(held: CatalogueHeld): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item: { ...catalogueHeldKey, ...held } }));
}

/** A version's facts alone (a pointer as read holds its key too). */
const factsOf = ({ version, parts, bytes, cards, languages, published_at }: CatalogueNow): CatalogueNow => ({
  version,
  parts,
  bytes,
  cards,
  languages,
  published_at,
});

/**
 * Publishes `text` (a compiled catalogue) over `previous` (the version in use when the refresh read it); none when
 * another version was published since. The previous version's place in the history is written again with it (the
 * same item): a version published before versions were kept is kept from then on, from when it was published.
 */
export async function publishCatalogue(
  text: string,
  facts: { cards: number; languages: readonly string[] },
  previous: CatalogueNow | undefined,
  at = new Date(),
): Promise<CatalogueNow | undefined> {
  const version = versionOf(text);
  const gzipped = gzipSync(text, { level: 9 });
  const parts: Buffer[] = [];
  for (let at = 0; at < gzipped.length; at += PART_BYTES) parts.push(gzipped.subarray(at, at + PART_BYTES));
  const TableName = tableName(DECKS);
  for (const [n, data] of parts.entries())
    await documentClient().send(new PutCommand({ TableName, Item: { ...cataloguePartKey(version, n), data } }));
  const now: CatalogueNow = {
    version,
    parts: parts.length,
    bytes: gzipped.length,
    cards: facts.cards,
    languages: [...facts.languages],
    published_at: at.toISOString(),
  };
  // The pointer and the version's place in the history of versions in force, both or neither.
  const outcome = await transact([
    {
      Put: {
        TableName,
        Item: { ...catalogueNowKey, ...now },
        ...(previous === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': previous.version } }),
      },
    },
    { Put: { TableName, Item: { ...now, ...catalogueFromKey(now) } } },
    ...(previous ? [{ Put: { TableName, Item: { ...factsOf(previous), ...catalogueFromKey(previous) } } }] : []),
  ]);
  if (outcome === 'conflict') throw new Error(`catalogue ${version}: its publication kept meeting another write; try again`);
  const written = outcome === 'ok';
  return written ? now : undefined;
}
