/**
 * `npm start`: DynamoDB Local persisted under DATA_DIR, the tables, and the API on 127.0.0.1:PORT
 * served by the deployed handler modules. Ctrl-C stops both, Java included.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { dynamoClient } from '#store/client.ts';
import { NODE_MAJOR, runningMajor } from '../node-version.ts';
import { ensureTables, startDynamoLocal } from './dynamodb.ts';
import { serve } from './gateway.ts';
import { installGrantsGuard } from './grants-guard.ts';

const port = Number(process.env.PORT ?? 3000);
const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
const dataDir = process.env.DATA_DIR ?? '.data';

mkdirSync(dataDir, { recursive: true });
const dynamo = await startDynamoLocal(dynamoPort, dataDir);
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  await dynamo.stop();
  process.exit(code);
}
dynamo.process.once('exit', (code) => {
  if (!stopping) {
    console.error(`DynamoDB Local stopped unexpectedly (${code}); stopping`);
    void stop(1);
  }
});

// Each handler may use only its route's grants, as in AWS (grants-guard.ts).
installGrantsGuard();
const server = createServer((req, res) => void serve(req, res));
try {
  const client = dynamoClient();
  const created = await ensureTables(client);
  client.destroy();
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const base = `http://127.0.0.1:${port}`;
  console.log(`Deck Library API listening on ${base} (DynamoDB Local on ${dynamo.endpoint}, data in ${dataDir}; node ${process.version})`);
  if (runningMajor() !== NODE_MAJOR)
    console.error(`note: Lambda runs Node ${NODE_MAJOR}; run through npm (npm start) to use the project's Node`);
  if (created.length > 0) {
    const account = await createAccount('Demo Player');
    const { key, apiKey } = await issueKey(account.user_id, [...SCOPES]);
    console.log(`First start: a demo account and key (the key is shown only now).
  user_id: ${account.user_id}
  api_key: ${apiKey}
  scopes:  ${key.scopes.join(',')}
Try: curl -H "Authorization: Bearer ${apiKey}" ${base}/api/v1/users/${account.user_id}/decks`);
  }
  console.log('Ctrl-C stops it.');
} catch (e) {
  console.error(`could not start: ${(e as Error).message}`);
  await stop(1);
}
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
