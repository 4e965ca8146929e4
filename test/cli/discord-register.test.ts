/**
 * `deckctl discord register` against a stand-in of Discord's API (no network here): the one request Discord
 * documents for it — PUT /applications/{id}/commands (Bulk Overwrite Global Application Commands) with
 * `Authorization: Bot <token>` and a DiscordBot User-Agent — and a body Discord would take: the compiler holds
 * COMMANDS to discord-api-types' RESTPutAPIApplicationCommandsJSONBody, and this checks what the types cannot
 * (name patterns, lengths, locales). What the stand-in omits: Discord's own validation, its rate limits and
 * its answer's full command objects (it echoes ids and names).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Locale } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '#discord/commands.ts';
import { deckctl } from '../support/deckctl.ts';
import { freePort } from '../support/runtime.ts';

interface Seen {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}
const seen: Seen[] = [];
let server: Server;
let base = '';
let refuse = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || 'null');
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (refuse) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: '401: Unauthorized', code: 0 }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify((body as { name: string }[]).map((c, i) => ({ id: String(1_300_000_000_000_000_000n + BigInt(i)), name: c.name }))),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const APP = '1300000000000000002';

describe('deckctl discord register', () => {
  it('PUTs the commands to /applications/{id}/commands as the bot, and says what it registered', async () => {
    const r = await deckctl(['discord', 'register', '--application-id', APP], { DISCORD_API_URL: base, DISCORD_BOT_TOKEN: 'bot-token-1' });
    expect([r.status, r.stdout.trim(), r.stderr]).toEqual([0, `registered /deck, /card for application ${APP}`, '']);
    const [request] = seen.splice(0);
    expect([request?.method, request?.url]).toEqual(['PUT', `/api/v10/applications/${APP}/commands`]);
    expect(request?.headers.authorization).toBe('Bot bot-token-1');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^DiscordBot \(https?:\/\/\S+, [^)]+\)$/);
    expect(request?.body).toEqual(JSON.parse(JSON.stringify(COMMANDS)));
  });

  it('the body keeps the rules Discord documents for commands (names, lengths, locales, installs and contexts)', () => {
    const locales = new Set<string>(Object.values(Locale));
    // Discord: Application Command Naming: 1–32 characters of letters, numbers, - and _ in any script, lower case where a script has case.
    const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
    const names = (o: { name: string; name_localizations?: Record<string, string> }) => [
      o.name,
      ...Object.values(o.name_localizations ?? {}),
    ];
    const descriptions = (o: { description: string; description_localizations?: Record<string, string> }) => [
      o.description,
      ...Object.values(o.description_localizations ?? {}),
    ];
    for (const command of COMMANDS) {
      for (const n of [...names(command), ...command.options.flatMap(names)]) {
        expect(n).toMatch(NAME);
        expect(n).toBe(n.toLowerCase());
      }
      for (const d of [...descriptions(command), ...command.options.flatMap(descriptions)]) expect(d.length, d).toBeLessThanOrEqual(100);
      for (const map of [
        command.name_localizations,
        command.description_localizations,
        ...command.options.flatMap((o) => [o.name_localizations, o.description_localizations]),
      ])
        for (const locale of Object.keys(map)) expect(locales.has(locale), locale).toBe(true);
      // Every language of the game has its names: de, es (Spain and Latin America), fr, it, ja, ko, pl, pt-BR, ru, zh-CN, zh-TW.
      expect(Object.keys(command.name_localizations).sort()).toEqual([
        'de',
        'es-419',
        'es-ES',
        'fr',
        'it',
        'ja',
        'ko',
        'pl',
        'pt-BR',
        'ru',
        'zh-CN',
        'zh-TW',
      ]);
      expect([command.integration_types, command.contexts]).toEqual([
        [0, 1],
        [0, 1, 2],
      ]);
    }
  });

  it('refuses a missing token in one line (exit 1), a bad application id with the usage (exit 2), and says when Discord refuses', async () => {
    const none = await deckctl(['discord', 'register', '--application-id', APP], { DISCORD_API_URL: base, DISCORD_BOT_TOKEN: '' });
    expect([none.status, none.stderr.trim().split('\n')]).toEqual([
      1,
      [expect.stringMatching(/^deckctl: no bot token: set DISCORD_BOT_TOKEN /)],
    ]);
    const named = await deckctl(['discord', 'register', '--application-id', APP, '--token-env', 'MY_TOKEN'], { DISCORD_API_URL: base });
    expect([named.status, named.stderr.trim()]).toEqual([1, expect.stringMatching(/set MY_TOKEN/)]);
    expect(seen).toHaveLength(0);
    const bad = await deckctl(['discord', 'register', '--application-id', 'abc'], { DISCORD_API_URL: base, DISCORD_BOT_TOKEN: 't' });
    expect(bad.status).toBe(2);
    refuse = true;
    try {
      const refused = await deckctl(['discord', 'register', '--application-id', APP], {
        DISCORD_API_URL: base,
        DISCORD_BOT_TOKEN: 'wrong',
      });
      expect([refused.status, refused.stderr.trim()]).toEqual([
        1,
        'deckctl: Discord refused the commands: 401 {"message":"401: Unauthorized","code":0}',
      ]);
    } finally {
      refuse = false;
    }
  });

  // Issue 53: Discord unreachable was said as "cannot reach DynamoDB in the configured region"; a dead URL as "fetch failed".
  it('Discord unreachable: exit 1 naming the URL asked and why, not the store', async () => {
    const port = await freePort();
    const dead = `http://127.0.0.1:${port}/api/v10`;
    const run = await deckctl(['discord', 'register', '--application-id', APP], { DISCORD_API_URL: dead, DISCORD_BOT_TOKEN: 't' });
    expect([run.status, run.stderr.trim()]).toEqual([
      1,
      `deckctl: cannot reach Discord's API at ${dead}/applications/${APP}/commands (ECONNREFUSED); check the network, or DISCORD_API_URL`,
    ]);
  });
});
