/**
 * The route table's grants, enforced locally: while a handler runs (inside `asRoute`), every DynamoDB
 * call it makes is checked against its route's grants, as IAM would check the deployed function's
 * policy. A call outside them fails with AccessDeniedException, so the tests that exercise a route
 * also prove its CDK permissions are enough, and a grant cannot silently go missing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Grantee, grantsOf, type TableAction } from '#routes';
import { signedRequests } from '#store/catalogue-read.ts';
import { documentClient } from '#store/client.ts';
import { ACCOUNTS, DECKS, tableName } from '#store/tables.ts';

const current = new AsyncLocalStorage<Grantee>();
/** Runs `fn` as a route's function (or a worker) runs: with its grants and no others. */
export const asRoute = <T>(who: Grantee, fn: () => Promise<T>): Promise<T> => current.run(who, fn);

interface Access {
  action: TableAction | string;
  table: string;
  index?: string;
  pk?: string;
}

const ITEM_ACTIONS: Record<string, TableAction> = {
  GetItemCommand: 'GetItem',
  PutItemCommand: 'PutItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
};
const TRANSACT_ACTIONS: Record<string, TableAction> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

type Input = {
  TableName?: string;
  IndexName?: string;
  Key?: { pk?: string };
  Item?: { pk?: string };
  KeyConditionExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
  TransactItems?: Record<string, Input>[];
  RequestItems?: Record<
    string,
    { PutRequest?: { Item?: { pk?: string } }; DeleteRequest?: { Key?: { pk?: string } } }[] | { Keys?: { pk?: string }[] }
  >;
};

/** The partition a query of the table itself reads: the value its key condition gives `pk`. */
const queriedPartition = (input: Input): string | undefined => {
  const name = /\bpk\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '')?.[1];
  const value = name ? input.ExpressionAttributeValues?.[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

function accesses(command: string, input: Input): Access[] {
  if (command === 'BatchWriteItemCommand') {
    return Object.entries(input.RequestItems ?? {}).flatMap(([table, requests]) =>
      (Array.isArray(requests) ? requests : []).map((r) => ({
        action: 'BatchWriteItem',
        table,
        pk: r.PutRequest?.Item?.pk ?? r.DeleteRequest?.Key?.pk,
      })),
    );
  }
  if (command === 'BatchGetItemCommand') {
    return Object.entries(input.RequestItems ?? {}).flatMap(([table, asked]) =>
      (Array.isArray(asked) ? [] : (asked.Keys ?? [])).map((key) => ({ action: 'BatchGetItem', table, pk: key.pk })),
    );
  }
  if (command === 'QueryCommand' && input.IndexName === undefined) {
    return [{ action: 'Query', table: input.TableName ?? '', pk: queriedPartition(input) }];
  }
  if (command === 'TransactWriteItemsCommand') {
    return (input.TransactItems ?? []).flatMap((item) =>
      Object.entries(item).map(([op, inner]) => ({
        action: TRANSACT_ACTIONS[op] ?? op,
        table: inner.TableName ?? '',
        pk: inner.Key?.pk ?? inner.Item?.pk,
      })),
    );
  }
  return [
    { action: ITEM_ACTIONS[command] ?? command, table: input.TableName ?? '', index: input.IndexName, pk: input.Key?.pk ?? input.Item?.pk },
  ];
}

/** What one access uses of a function's grants: each (table, action, index or key pattern) that allows it; none: denied. */
export function usesOf(who: Grantee, a: Access): GrantUse[] {
  const table = a.table === tableName(DECKS) ? 'decks' : a.table === tableName(ACCOUNTS) ? 'accounts' : undefined;
  return grantsOf(who).flatMap((g) => {
    if (g.table !== table || !(g.actions as string[]).includes(a.action)) return [];
    // A query of an index needs the index granted; anything else, a key pattern its partition key starts with.
    const on =
      a.index !== undefined
        ? (g.indexes ?? []).filter((index) => index === a.index)
        : g.indexes !== undefined
          ? []
          : (g.leadingKeys ?? []).filter((k) => a.pk?.startsWith(k.replace(/\*$/, '')));
    return on.map((part) => use(who, g.table, a.action, part));
  });
}

export const allowed = (who: Grantee, a: Access): boolean => usesOf(who, a).length > 0;

/** One part of a function's grants: an action on a table, through one index or on the items of one key pattern. */
export interface GrantUse {
  who: string;
  table: string;
  action: string;
  on: string;
}
const use = (who: Grantee, table: string, action: string, on: string): GrantUse => ({ who: who.name, table, action, on });

/** Every part of a function's grants, as usesOf names them. */
export const grantParts = (who: Grantee): GrantUse[] =>
  grantsOf(who).flatMap((g) =>
    g.actions.flatMap((action) => [...(g.indexes ?? []), ...(g.leadingKeys ?? [])].map((on) => use(who, g.table, action, on))),
  );

/**
 * The parts of grants that requests used, written (one JSON line each, the first time) to a file of this
 * process in GRANTS_USED_DIR when it is set: `npm test` then checks that every part of every grant was used
 * (scripts/grants-used.ts), so that no function holds a grant no request needs.
 */
const seen = new Set<string>();
function record(uses: GrantUse[]): void {
  const dir = process.env.GRANTS_USED_DIR;
  if (!dir) return;
  for (const use of uses) {
    const line = JSON.stringify(use);
    if (seen.has(line)) continue;
    seen.add(line);
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${line}\n`);
  }
}

/** Checks one call against the grants of the function it runs in (none: a call outside every function), recording what it uses. */
function guard(command: string, input: Input): void {
  const route = current.getStore();
  if (!route) return;
  const used: GrantUse[] = [];
  for (const a of accesses(command, input)) {
    const uses = usesOf(route, a);
    if (uses.length === 0) {
      throw Object.assign(new Error(`${route.name} may not ${a.action} ${a.table}${a.index ? `/index/${a.index}` : ''} ${a.pk ?? ''}`), {
        name: 'AccessDeniedException',
      });
    }
    used.push(...uses);
  }
  // A call IAM would refuse is made by no request: only calls sent count as uses.
  record(used);
}

let installed = false;
export function installGrantsGuard(): void {
  if (installed) return;
  installed = true;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      guard((context as { commandName?: string }).commandName ?? '', args.input as Input);
      return next(args);
    },
    { step: 'initialize', name: 'local-grants-guard' },
  );
  // The published catalogue's reads, signed requests without the SDK (lib/store/catalogue-read.ts), alike.
  signedRequests.check = (action, input) => guard(`${action}Command`, input);
}
