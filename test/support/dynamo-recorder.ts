/**
 * Records what the store asks DynamoDB: each command, its keys and indexes, and items read — failed
 * calls too (a write whose condition failed is still an operation, billed, that wrote nothing).
 */
import { documentClient } from '#store/client.ts';

export interface Call {
  command: string;
  input: Record<string, unknown>;
  scanned?: number;
  /** The attribute names of the items it returned (Item, Items). */
  returned: Set<string>;
  /** It threw (a condition that failed, a cancelled transaction): nothing was written. */
  failed?: boolean;
}

// The document client's commands run as the base client's: these are their names.
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

// A transaction's condition checks write nothing.
const itemsOf = (c: Call) =>
  c.command === 'TransactWriteItemsCommand'
    ? ((c.input as { TransactItems?: object[] }).TransactItems ?? []).filter((item) => !('ConditionCheck' in item)).length
    : ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand'].includes(c.command)
      ? 1
      : 0;

export function recordDynamo() {
  const calls: Call[] = [];
  const name = `recorder-${Math.random()}`;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName ?? '?';
      const result = await next(args).catch((error: unknown) => {
        calls.push({ command, input: args.input as Record<string, unknown>, returned: new Set(), failed: true });
        throw error;
      });
      const output = (result as { output?: { ScannedCount?: number; Item?: object; Items?: object[] } }).output;
      const items = [...(output?.Items ?? []), ...(output?.Item ? [output.Item] : [])];
      calls.push({
        command,
        input: args.input as Record<string, unknown>,
        scanned: output?.ScannedCount,
        returned: new Set(items.flatMap((item) => Object.keys(item))),
      });
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    calls,
    reset: () => calls.splice(0),
    writes: () => calls.filter((c) => WRITES.has(c.command) && !c.failed),
    /** Items written: one per Put, Update or Delete and each write of a transaction, of the calls that succeeded. */
    written: () => calls.reduce((n, c) => n + (c.failed ? 0 : itemsOf(c)), 0),
    /** Items read by the queries recorded (ScannedCount summed). */
    scanned: () => calls.reduce((n, c) => n + (c.scanned ?? 0), 0),
    stop: () => documentClient().middlewareStack.remove(name),
  };
}
