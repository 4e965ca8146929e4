/** `deckctl users …` and `deckctl keys …` (contract §5–§6): against the local store, or AWS with --aws. */
import { parseArgs } from 'node:util';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { checkKeyBody, keyStatus } from '#rules/keys.ts';
import { listKeys, revokeKey } from '#store/accounts.ts';
import { UsageError } from './usage.ts';

const COMMON = { json: { type: 'boolean' }, aws: { type: 'boolean' } } as const;

/**
 * Where deckctl's store is: DYNAMODB_ENDPOINT, else the local store of `npm start`
 * (127.0.0.1:DYNAMODB_PORT); with --aws the credential chain and the deployed table names.
 */
export function useStore(aws: boolean | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (aws) {
    if (!env.ACCOUNTS_TABLE) throw new UsageError('--aws needs ACCOUNTS_TABLE (and DECKS_TABLE) set to the stack outputs');
    delete env.DYNAMODB_ENDPOINT;
    return;
  }
  env.DYNAMODB_ENDPOINT ||= `http://127.0.0.1:${env.DYNAMODB_PORT || 8000}`;
}

const print = (json: boolean | undefined, value: unknown, text: string) => console.log(json ? JSON.stringify(value, null, 2) : text);

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

export async function usersCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMMON, 'display-name': { type: 'string' } } });
  useStore(values.aws);
  const name = required(values['display-name'], '--display-name');
  const account = await createAccount(name).catch((e: unknown) => {
    throw e instanceof RangeError ? new UsageError(e.message) : e;
  });
  const out = { user_id: account.user_id, display_name: account.display_name };
  print(values.json, out, `created user ${out.user_id} (${out.display_name})`);
  return 0;
}

export async function keysCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      'user-id': { type: 'string' },
      scopes: { type: 'string' },
      label: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
  });
  useStore(values.aws);
  const userId = required(values['user-id'], '--user-id');
  const days = values['expires-in-days'];
  // The key body's own rules (rules/keys.ts), as the API holds a key made by a key to them.
  const checked = checkKeyBody({
    scopes: required(values.scopes, '--scopes')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...(values.label === undefined ? {} : { label: values.label }),
    ...(days === undefined ? {} : { expires_in_days: Number(days) }),
  });
  if (!checked.ok)
    throw new UsageError(checked.details.map((d) => `--${d.path.replace(/\[\d+\]$/, '').replaceAll('_', '-')}: ${d.message}`).join('; '));
  const { scopes, label, expires_in_days: expiresInDays } = checked.request;
  try {
    const { key, apiKey } = await issueKey(userId, scopes, { label, expiresInDays });
    const out = {
      key_id: key.key_id,
      api_key: apiKey,
      user_id: key.user_id,
      scopes: key.scopes,
      label: key.label,
      expires_at: key.expires_at,
    };
    print(
      values.json,
      out,
      `key ${out.key_id} for ${out.user_id} (${out.scopes.join(',')}${out.expires_at ? `, expires ${out.expires_at}` : ''})\n${apiKey}\nThe key is shown only now.`,
    );
    return 0;
  } catch (e) {
    if (e instanceof RangeError) {
      console.error(`deckctl: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

export async function keysRevoke(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMMON, 'key-id': { type: 'string' } } });
  useStore(values.aws);
  const keyId = required(values['key-id'], '--key-id');
  const revoked = await revokeKey(keyId);
  print(values.json, { key_id: keyId, revoked }, revoked ? `revoked ${keyId}` : `no key ${keyId}`);
  return revoked ? 0 : 1;
}

export async function keysList(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMMON, 'user-id': { type: 'string' } } });
  useStore(values.aws);
  const keys = await listKeys(required(values['user-id'], '--user-id'));
  const now = new Date();
  print(
    values.json,
    keys,
    keys
      .map(
        (k) =>
          `${k.key_id}  ${keyStatus(k, now).padEnd(7)}  ${k.scopes.join(',')}  ${k.created_at}  ${k.expires_at ?? 'no expiry'}  ${k.label}`,
      )
      .join('\n') || 'no keys',
  );
  return 0;
}
