/**
 * The one recorder of what the store asks DynamoDB, for the tests and the bench (scripts/bench/): each
 * call's command, its input (a copy, as sent), when it started and ended, items read and the attribute
 * names it returned, capacity units when asked for — failed calls too (a write whose condition failed
 * is still an operation, billed, that wrote nothing).
 */
import { documentClient } from '#store/client.ts';

export interface Call {
  /** The base client's command name, e.g. GetItemCommand (the document client's commands run as these). */
  command: string;
  input: Record<string, unknown>;
  /** performance.now() when it was sent and when it was answered (or failed). */
  start: number;
  end: number;
  scanned?: number;
  /** A GetItem that found its item. */
  found?: boolean;
  /** The items a BatchGetItem returned. */
  got?: number;
  /** The attribute names of the items it returned (Item, Items). */
  returned: Set<string>;
  /** Capacity units DynamoDB reported (with `capacity`: ReturnConsumedCapacity TOTAL). */
  units?: number;
  /** It threw (a condition that failed, a cancelled transaction): nothing was written. */
  failed?: boolean;
}

/** A command's operation name: GetItemCommand → GetItem. */
export const operationOf = (c: Pick<Call, 'command'>) => c.command.replace(/Command$/, '');

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

/** Items a call wrote: one per Put, Update or Delete and each write of a transaction (its condition checks write nothing). */
export const itemsWritten = (c: Call) =>
  c.failed
    ? 0
    : operationOf(c) === 'TransactWriteItems'
      ? ((c.input as { TransactItems?: object[] }).TransactItems ?? []).filter((item) => !('ConditionCheck' in item)).length
      : ['PutItem', 'UpdateItem', 'DeleteItem'].includes(operationOf(c))
        ? 1
        : 0;

interface Consumed {
  CapacityUnits?: number;
}

type BatchGet = {
  RequestItems?: Record<string, { Keys?: object[]; ConsistentRead?: boolean }>;
};
type BatchGot = { Responses?: Record<string, object[]>; UnprocessedKeys?: Record<string, { Keys?: object[] }> };

/**
 * The units a BatchGetItem's keys with no item cost, which DynamoDB Local reports as 0: AWS bills each key of a
 * batch as its own GetItem, and a read of an item that does not exist as one of a 4 KB item (DynamoDB developer
 * guide, "DynamoDB read and write operations": "If you perform a read operation on an item that doesn't exist,
 * DynamoDB will still consume read throughput"; BatchGetItem "processes each item in the batch as an individual
 * GetItem request"). DynamoDB Local 3.3.0 here: 3 keys of no item, 0 units; 2 small items, 2 (1 eventually).
 */
function missingKeyUnits(input: BatchGet, output: BatchGot | undefined): number {
  let units = 0;
  for (const [table, asked] of Object.entries(input.RequestItems ?? {})) {
    const missing =
      (asked.Keys?.length ?? 0) - (output?.Responses?.[table]?.length ?? 0) - (output?.UnprocessedKeys?.[table]?.Keys?.length ?? 0);
    units += missing * (asked.ConsistentRead ? 1 : 0.5);
  }
  return units;
}

/** Records every call of the store's document client from now until `stop`; with `capacity`, asks DynamoDB for the units each consumed. */
export function recordDynamo({ capacity = false }: { capacity?: boolean } = {}) {
  const calls: Call[] = [];
  const name = `recorder-${Math.random()}`;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName ?? '?';
      const input = args.input as Record<string, unknown>;
      if (capacity) input.ReturnConsumedCapacity = 'TOTAL';
      const call: Call = { command, input: structuredClone(input), start: performance.now(), end: 0, returned: new Set() };
      calls.push(call);
      try {
        const result = await next(args);
        const output = (result as { output?: { ScannedCount?: number; Item?: object; Items?: object[]; ConsumedCapacity?: unknown } })
          .output;
        const got = Object.values((output as BatchGot | undefined)?.Responses ?? {}).flat();
        const items = [...(output?.Items ?? []), ...(output?.Item ? [output.Item] : []), ...got];
        call.scanned = output?.ScannedCount;
        call.found = output?.Item !== undefined;
        if (command === 'BatchGetItemCommand') call.got = got.length;
        call.returned = new Set(items.flatMap((item) => Object.keys(item)));
        const consumed = ([] as Consumed[]).concat((output?.ConsumedCapacity as Consumed | Consumed[] | undefined) ?? []);
        if (consumed.length) call.units = consumed.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
        if (consumed.length && command === 'BatchGetItemCommand')
          call.units = (call.units ?? 0) + missingKeyUnits(input as BatchGet, output as BatchGot | undefined);
        return result;
      } catch (error) {
        call.failed = true;
        throw error;
      } finally {
        call.end = performance.now();
      }
    },
    { step: 'initialize', name },
  );
  return {
    calls,
    reset: () => calls.splice(0),
    writes: () => calls.filter((c) => WRITES.has(operationOf(c)) && !c.failed),
    /** Items written: one per Put, Update or Delete and each write of a transaction, of the calls that succeeded. */
    written: () => calls.reduce((n, c) => n + itemsWritten(c), 0),
    /** Items read by the queries recorded (ScannedCount summed). */
    scanned: () => calls.reduce((n, c) => n + (c.scanned ?? 0), 0),
    /** Calls by operation name, e.g. { GetItem: 2, Query: 1 }, failed ones included. */
    operations: () => {
      const counts: Record<string, number> = {};
      for (const c of calls) counts[operationOf(c)] = (counts[operationOf(c)] ?? 0) + 1;
      return counts;
    },
    stop: () => documentClient().middlewareStack.remove(name),
  };
}
