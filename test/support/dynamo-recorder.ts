/** Records what the store asks DynamoDB: each command, its keys and indexes, and items read. */
import { documentClient } from '#store/client.ts';

export interface Call {
  command: string;
  input: Record<string, unknown>;
  scanned?: number;
  /** The attribute names of the items it returned (Item, Items). */
  returned: Set<string>;
}

// The document client's commands run as the base client's: these are their names.
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export function recordDynamo() {
  const calls: Call[] = [];
  const name = `recorder-${Math.random()}`;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = (result as { output?: { ScannedCount?: number; Item?: object; Items?: object[] } }).output;
      const items = [...(output?.Items ?? []), ...(output?.Item ? [output.Item] : [])];
      calls.push({
        command: (context as { commandName?: string }).commandName ?? '?',
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
    writes: () => calls.filter((c) => WRITES.has(c.command)),
    /** Items read by the queries recorded (ScannedCount summed). */
    scanned: () => calls.reduce((n, c) => n + (c.scanned ?? 0), 0),
    stop: () => documentClient().middlewareStack.remove(name),
  };
}
