/** deckctl: the project's admin command (contract §5–§7). Exit 0 ok, 1 a negative answer, 2 usage. */
import { parseArgs } from 'node:util';
import { catalogue } from '#catalogue/load.ts';
import { deckCheck, formatDeckCheck } from './deck-check.ts';

const USAGE = `usage:
  deckctl deck check CODE [--json]          check a deck code against the catalogue (CATALOGUE_FILE or the demo)`;

export class UsageError extends Error {}

type Command = (args: string[]) => Promise<number> | number;

const commands: Record<string, Command> = {
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
