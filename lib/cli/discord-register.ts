/**
 * `deckctl discord register --application-id ID [--token-env NAME]` (contract §11.3): puts the application's
 * global commands (lib/discord/commands.ts) with one request — Discord's "Bulk Overwrite Global Application
 * Commands", PUT /applications/{application.id}/commands, authorised as the bot (`Authorization: Bot TOKEN`)
 * and naming itself as Discord asks of bots (`User-Agent: DiscordBot ($url, $versionNumber)`: Discord API
 * Reference, "User Agent"). The token is read from an environment variable (DISCORD_BOT_TOKEN unless named),
 * never from the command line, where it would stay in the shell's history. DISCORD_API_URL points it at
 * another base URL (a stand-in of Discord's API, in tests).
 */
import { parseArgs } from 'node:util';
import { COMMANDS } from '#discord/commands.ts';
import { UsageError } from './usage.ts';

export const DISCORD_API = 'https://discord.com/api/v10';
const TOKEN_ENV = 'DISCORD_BOT_TOKEN';

export async function discordRegister(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'application-id': { type: 'string' }, 'token-env': { type: 'string' }, json: { type: 'boolean' } },
  });
  const id = values['application-id'];
  // A Discord id is a snowflake: a 64-bit integer, written in decimal.
  if (!id || !/^\d{15,21}$/.test(id)) throw new UsageError("--application-id is the application's id (its snowflake: digits)");
  const from = values['token-env'] ?? TOKEN_ENV;
  const token = process.env[from];
  if (!token) throw new Error(`no bot token: set ${from} to the application's bot token (or name another variable with --token-env)`);
  const url = `${process.env.DISCORD_API_URL || DISCORD_API}/applications/${id}/commands`;
  let answer: Response;
  let text: string;
  try {
    answer = await fetch(url, {
      method: 'PUT',
      headers: {
        authorization: `Bot ${token}`,
        'content-type': 'application/json',
        'user-agent': 'DiscordBot (https://github.com/deck-library/deck-library, 1)',
      },
      body: JSON.stringify(COMMANDS),
      signal: AbortSignal.timeout(15_000),
    });
    text = await answer.text();
  } catch (e) {
    // Discord, not the store: said with the URL asked and why (a network failure is not DynamoDB's).
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    console.error(`deckctl: cannot reach Discord's API at ${url} (${why}); check the network, or DISCORD_API_URL`);
    return 1;
  }
  if (!answer.ok) {
    console.error(`deckctl: Discord refused the commands: ${answer.status} ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
    return 1;
  }
  const registered = JSON.parse(text) as { id: string; name: string }[];
  if (values.json) console.log(JSON.stringify(registered.map(({ id: commandId, name }) => ({ id: commandId, name }))));
  else console.log(`registered ${registered.map((c) => `/${c.name}`).join(', ')} for application ${id}`);
  return 0;
}
