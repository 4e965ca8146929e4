/** deckctl: the project's admin command (contract §5–§7). Exit 0 ok, 1 a negative answer, 2 usage. */
import { parseArgs } from 'node:util';
import { catalogue } from '#catalogue/load.ts';
import { keysCreate, keysList, keysRevoke, usersCreate } from './accounts.ts';
import { deckCheck, formatDeckCheck } from './deck-check.ts';
import { UsageError } from './usage.ts';

const USAGE = `usage:
  deckctl users create --display-name NAME [--json] [--aws]
  deckctl keys create --user-id ID --scopes decks:read,decks:write,decks:delete [--json] [--aws]
  deckctl keys revoke --key-id ID [--json] [--aws]
  deckctl keys list --user-id ID [--json] [--aws]
  deckctl deck check CODE [--json]

Store: DYNAMODB_ENDPOINT, else the local store of \`npm start\` (127.0.0.1:DYNAMODB_PORT, default 8000);
--aws: the AWS credential chain and the tables named by ACCOUNTS_TABLE / DECKS_TABLE.
Catalogue: CATALOGUE_FILE, else the demo catalogue.`;

type Command = (args: string[]) => Promise<number> | number;

const commands: Record<string, Command> = {
  'users create': usersCreate,
  'keys create': keysCreate,
  'keys revoke': keysRevoke,
  'keys list': keysList,
  'deck check': (args) => {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError('deck check takes exactly one deck code');
    const result = deckCheck(positionals[0] as string, catalogue());
    console.log(values.json ? JSON.stringify(result, null, 2) : formatDeckCheck(result));
    return result.valid ? 0 : 1;
  },
};

export async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = commands[name];
  try {
    if (!command) throw new UsageError(argv.length ? `unknown command: ${name}` : 'no command given');
    return await command(argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`deckctl: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    console.error(`deckctl: ${(e as Error).message}`);
    return 1;
  }
}
