/** deckctl: the project's admin command (contract §5–§7). Exit 0 ok, 1 a negative answer, 2 usage. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { catalogue } from '#catalogue/load.ts';
import { SCOPES } from '#rules/scopes.ts';
import { waitAsAnOperator } from '#store/client.ts';
import { failureName, isStoreUnavailable, wasNotSent } from '#store/faults.ts';
import { BucketUnreachable } from '#store/objects.ts';
import { keysCreate, keysList, keysRevoke, usersCreate } from './accounts.ts';
import { archetypesApply, archetypesCheck, archetypesCluster } from './archetypes.ts';
import { bulkExport } from './bulk-export.ts';
import { catalogueDiff } from './catalogue-diff.ts';
import { catalogueFetch } from './catalogue-fetch.ts';
import { catalogueRefresh } from './catalogue-refresh.ts';
import { cursorKeyRotate } from './cursor-key.ts';
import { deckCheck, formatDeckCheck } from './deck-check.ts';
import { discordRegister } from './discord-register.ts';
import { metaRecount } from './meta-recount.ts';
import { searchReindex } from './search-reindex.ts';
import { UsageError } from './usage.ts';
import { boardsBuild, viewsCheck, viewsMigrate } from './views.ts';

type Command = { usage: string; help: string; run: (args: string[]) => Promise<number> | number };

const commands = new Map<string, Command>([
  [
    'users create',
    { usage: 'users create --display-name NAME [--json] [--aws]', help: 'Creates an account; prints its user_id.', run: usersCreate },
  ],
  [
    'keys create',
    {
      usage: `keys create --user-id ID --scopes SCOPE[,SCOPE…] [--label TEXT] [--expires-in-days 1-365] [--json] [--aws]`,
      help: `Issues an API key for an account with the scopes named, any of ${SCOPES.join(', ')} (none implies another). The key is printed once; only a hash of its secret is stored.`,
      run: keysCreate,
    },
  ],
  ['keys revoke', { usage: 'keys revoke --key-id ID [--json] [--aws]', help: 'Revokes a key at once.', run: keysRevoke }],
  [
    'keys list',
    { usage: 'keys list --user-id ID [--json] [--aws]', help: "Lists an account's keys (never their secrets).", run: keysList },
  ],
  [
    'catalogue fetch',
    {
      usage: 'catalogue fetch --out FILE [--languages en,de,ru,…] [--endpoint URL | --from SAVED] [--json]',
      help: 'Builds a catalogue file from the KARDS GraphQL endpoint the kards.com deck builder reads (default https://api.kards.com/graphql), or from a saved answer of it (--from): every card, its names in each language asked (default: every language of the game: en, de, es, fr, it, ko, pl, pt, ru, zh; one without titles is reported and left out). Writes nothing when a page fails after retries, a card cannot be mapped or an import id repeats; the error names the card. Exit 0 written, 1 refused, 2 usage.',
      run: catalogueFetch,
    },
  ],
  [
    'catalogue refresh',
    {
      usage: 'catalogue refresh [--endpoint URL] [--json] [--aws] [--allow-removals]',
      help: 'Runs the daily catalogue refresh now: fetches the official catalogue as catalogue fetch does (every language), validates it as the service loads one, and publishes it to the store when it differs from the one the functions use (they use it within a minute, with no deploy). A fetch or a validation that fails publishes nothing; a listing is taken only once two passes agree. A version that drops cards the one in use has is held (the cards named) until a second refresh agrees, or at once with --allow-removals. Exit 0 published or unchanged, 1 refused or held.',
      run: catalogueRefresh,
    },
  ],
  [
    'catalogue diff',
    {
      usage: 'catalogue diff OLD NEW [--decks] [--json] [--aws]',
      help: 'Cards added, removed and changed (rarity, faction, exile, derived) between two catalogue files; with --decks, the stored decks the new one would make illegal, by rule.',
      run: catalogueDiff,
    },
  ],
  [
    'search reindex',
    {
      usage: 'search reindex [--json] [--aws]',
      help: "Rewrites every public deck's search entries as this version defines them (run once after an upgrade that indexes more, such as card search). Safe while the API serves.",
      run: searchReindex,
    },
  ],
  [
    'meta recount',
    {
      usage: 'meta recount [--json] [--aws]',
      help: 'Counts what the library plays (cards by faction, faction pairs, tags) again from the public decks, prints each figure that had drifted, and writes the count. Run while the library is quiet.',
      run: metaRecount,
    },
  ],
  [
    'views migrate',
    {
      usage: 'views migrate [--json] [--aws]',
      help: "Moves the view counts of the legacy view buckets into each deck's own count, once (run after the deploy that counts views a deck an item). Resumable.",
      run: viewsMigrate,
    },
  ],
  [
    'views check',
    {
      usage: 'views check [--repair] [--json] [--aws]',
      help: "Holds every public deck's folded views and views of the week to its count, and counts the batches waiting in the view logs; --repair folds the decks found outside their bounds. Exit 1 when one is (without --repair).",
      run: viewsCheck,
    },
  ],
  [
    'boards build',
    {
      usage: 'boards build [--json] [--aws]',
      help: "Builds the boards of the browsed orders (views and trending, of all decks and of each faction) from every public deck's exact counts, marking each deck's count with its factions. Run once after the deploy that brings them, in a library of more than 2,000 public decks (a smaller one is built by the first views window); search reads the index alone till then. Safe while the API serves.",
      run: boardsBuild,
    },
  ],
  [
    'bulk export',
    {
      usage: 'bulk export [--public-url URL] [--json] [--aws]',
      help: "Writes the bulk files now, as the daily job does: every public deck (gzip NDJSON) and the library's figures (gzip JSON), each to a new key of the bucket, then lists them (GET /api/v1/bulk-data). Streamed: the library is never held in memory. Prints each file's records, size and key, and the read units of the decks' Scan.",
      run: bulkExport,
    },
  ],
  [
    'cursor-key rotate',
    {
      usage: 'cursor-key rotate [--force] [--json] [--aws]',
      help: 'A new key signs list cursors from now on; the one before it still opens its cursors, any older one is retired. Refused within 5 minutes of the last rotation without --force.',
      run: cursorKeyRotate,
    },
  ],
  [
    'discord register',
    {
      usage: 'discord register --application-id ID [--token-env NAME] [--json]',
      help: "Registers the Discord application's commands (/deck, /card; names and descriptions localised; installable to servers and to users) through Discord's API, replacing the application's global commands. The bot token is read from DISCORD_BOT_TOKEN, or the variable --token-env names. Exit 0 registered, 1 refused.",
      run: discordRegister,
    },
  ],
  [
    'archetypes check',
    {
      usage: 'archetypes check [--rules FILE] [--bulk FILE] [--json] [--aws]',
      help: 'Reads an archetype rules file (default: the rules in use, the newest of lib/archetypes/) against the catalogue and applies it to every public deck of the library, or of a bulk decks file (--bulk: NDJSON, gzip or not): the decks each rule takes, those none takes, those two rules of one priority take, and those whose archetype differs from the rules in use — a few of each by share slug. Exit 1 when the file does not read (the line named, and the value’s path), a bulk line is not a deck (its line named), or two rules of one priority take a deck.',
      run: archetypesCheck,
    },
  ],
  [
    'archetypes apply',
    {
      usage: 'archetypes apply [--json] [--aws]',
      help: 'Gives every stored deck the archetype the rules in use give it (after a deploy that changes the rules; a deck no rule takes keeps its cluster, or none), its search entries with it: written only where it differs, only while the deck is as read, no version kept. Idempotent, so resumable: run it again after a stop. Prints the decks reclassified, unchanged and changed meanwhile (run again for those). Exit 1 when no rules file reads against the catalogue in use.',
      run: archetypesApply,
    },
  ],
  [
    'archetypes cluster',
    {
      usage: 'archetypes cluster [--json] [--aws]',
      help: 'Runs the daily cluster job now: the public decks no archetype rule takes are grouped by their cards (per main nation: the same anchor cards; a group of 5 or more is a cluster, its signature its core cards, in 80% of its decks, and tech, in 30%), each given its cluster’s archetype (by: "cluster") or none, with its search entries. Prints the public decks read, those no rule takes, clustered, the clusters, the decks written and the read units of its two Scans. Exit 1 against a deployed store (--aws) with the demo catalogue.',
      run: archetypesCluster,
    },
  ],
  [
    'deck check',
    {
      usage: 'deck check CODE [--json]',
      help: 'Applies the deck rules to a deck code (its %% form, its URL form, or a kards.com deck-builder link holding it) against the catalogue. Exit 0 valid, 1 invalid.',
      run: (args) => {
        const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
        if (positionals.length !== 1) throw new UsageError('deck check takes exactly one deck code');
        const result = deckCheck(positionals[0] as string, catalogue());
        console.log(values.json ? JSON.stringify(result, null, 2) : formatDeckCheck(result));
        return result.valid ? 0 : 1;
      },
    },
  ],
]);

const WHERE = `Store: DYNAMODB_ENDPOINT, else the local store of \`npm start\` (127.0.0.1:DYNAMODB_PORT, default 8000);
--aws: the AWS credential chain and the tables named by ACCOUNTS_TABLE / DECKS_TABLE.
Catalogue: CATALOGUE_FILE, else the demo catalogue. catalogue fetch and refresh: KARDS_GRAPHQL_ENDPOINT, else https://api.kards.com/graphql.
discord register: DISCORD_API_URL, else https://discord.com/api/v10.
bulk export: BULK_BUCKET at S3_ENDPOINT, else npm start's (127.0.0.1:S3_PORT, default 8001); links on PUBLIC_URL.`;

const USAGE = `usage:
${[...commands.values()].map((c) => `  deckctl ${c.usage}`).join('\n')}
  deckctl [COMMAND] --help | --version

${WHERE}`;

const version = (): string =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = commands.get(name);
  const helpAsked = argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
  if (helpAsked) {
    console.log(command ? `usage: deckctl ${command.usage}\n\n${command.help}\n\n${WHERE}` : USAGE);
    return 0;
  }
  if (argv[0] === '--version') {
    console.log(`deckctl ${version()} (node ${process.version})`);
    return 0;
  }
  try {
    if (!command) throw new UsageError(argv.length ? `unknown command: ${name}` : 'no command given');
    waitAsAnOperator();
    return await command.run(argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`deckctl: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    if (e instanceof BucketUnreachable) {
      const local = process.env.S3_ENDPOINT !== undefined;
      console.error(
        `deckctl: ${e.message} (${local ? "npm start's stand-in: start it with npm start, or set S3_ENDPOINT / S3_PORT" : 'check the AWS credentials, AWS_REGION and BULK_BUCKET'})`,
      );
      return 1;
    }
    // An answer the SDK cannot read as DynamoDB's: the endpoint is something else's (a page, another service).
    if (process.env.DYNAMODB_ENDPOINT && /Deserialization error/i.test((e as Error).message ?? '')) {
      console.error(
        `deckctl: the store at ${process.env.DYNAMODB_ENDPOINT} did not answer as DynamoDB does (is DYNAMODB_ENDPOINT the table store's? npm start prints it)`,
      );
      return 1;
    }
    if (isStoreUnavailable(e)) {
      const local = process.env.DYNAMODB_ENDPOINT;
      const store = local ? `the store at ${local}` : `DynamoDB in ${process.env.AWS_REGION ?? 'the configured region'}`;
      // Refused or unknown: nothing is there. Anything else (timed out, throttled, failing) after every attempt: it is there, and busy.
      if (!wasNotSent(e)) {
        console.error(`deckctl: ${store} answered, and failed after retries (${failureName(e)}): it is busy, throttled or stalled`);
        return 1;
      }
      const hint = local
        ? '(start it with npm start, or set DYNAMODB_ENDPOINT / DYNAMODB_PORT)'
        : "(check the AWS credentials, AWS_REGION and the tables' names)";
      console.error(`deckctl: cannot reach ${store} ${hint}`);
      return 1;
    }
    console.error(`deckctl: ${(e as Error).message}`);
    return 1;
  }
}
