/**
 * The route table's grants, enforced locally: while a handler runs (inside `asRoute`), every DynamoDB
 * call it makes is checked against its route's grants, as IAM would check the deployed function's
 * policy. A call outside them fails with AccessDeniedException, so the tests that exercise a route
 * also prove its CDK permissions are enough, and a grant cannot silently go missing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { grantsOf, type Route, type TableAction } from '#routes';
import { documentClient } from '#store/client.ts';
import { ACCOUNTS, DECKS, tableName } from '#store/tables.ts';

const current = new AsyncLocalStorage<Route>();
export const asRoute = <T>(route: Route, fn: () => Promise<T>): Promise<T> => current.run(route, fn);

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
  TransactItems?: Record<string, Input>[];
};

function accesses(command: string, input: Input): Access[] {
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

export function allowed(route: Route, a: Access): boolean {
  const table = a.table === tableName(DECKS) ? 'decks' : a.table === tableName(ACCOUNTS) ? 'accounts' : undefined;
  return grantsOf(route).some(
    (g) =>
      g.table === table &&
      (g.actions as string[]).includes(a.action) &&
      (a.action === 'Query'
        ? a.index !== undefined && (g.indexes ?? []).includes(a.index)
        : (g.keys ?? []).some((k) => a.pk?.startsWith(k.replace(/\*$/, '')))),
  );
}

let installed = false;
export function installGrantsGuard(): void {
  if (installed) return;
  installed = true;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const route = current.getStore();
      const command = (context as { commandName?: string }).commandName ?? '';
      if (route) {
        for (const a of accesses(command, args.input as Input)) {
          if (!allowed(route, a)) {
            throw Object.assign(
              new Error(`${route.name} may not ${a.action} ${a.table}${a.index ? `/index/${a.index}` : ''} ${a.pk ?? ''}`),
              { name: 'AccessDeniedException' },
            );
          }
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'local-grants-guard' },
  );
}
