/**
 * The docs' curl walkthrough (the README's "Where to go next": docs/owner-api.md, docs/public-api.md to "The API
 * reference", docs/sharing.md, docs/events.md to its routes, docs/accounts.md), run as a reader would: every curl line in its order, by bash
 * and curl, against a
 * runtime, with the placeholders a reader fills in taken from the answers before them (the printed demo
 * account, the create answer's id and share slug, a page's next cursor, the image's ETag, a made key's
 * id, an event's id). Each command's expected answer is read from the README too: an answer shown as an error envelope
 * is that error, a bare status (`# 304`) is that status, any other command succeeds; a page shown with
 * its `meta` answers that `meta`; a page piped to grep shows the lines the README shows.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './shared.ts';

const run = promisify(execFile);
const README_BASE = 'http://127.0.0.1:3000';

export interface Command {
  /** The command as the README writes it (continuation lines included). */
  text: string;
  /** The README's comment lines under it (an answer it shows), joined. */
  shows: string;
}

export interface Answer {
  command: string;
  status: number;
  body: unknown;
  /** What the README says it answers: an error code, a status, a meta, grep's lines, or success. */
  expected: { error?: string; status?: number; meta?: unknown; lines?: string[] };
  /** What a command piped to another printed (its lines). */
  lines?: string[];
}

/**
 * The walkthrough's documents, in order (the README's "Where to go next"), and the part of each it runs:
 * [file, from heading (or the start), to heading (or the end)).
 */
export const WALKTHROUGH = [
  ['docs/owner-api.md', undefined, undefined],
  ['docs/public-api.md', undefined, '## The API reference'],
  ['docs/sharing.md', undefined, undefined],
  // Before accounts.md, which ends with the demo account's erasure.
  ['docs/events.md', undefined, '## Routes'],
  ['docs/accounts.md', undefined, undefined],
] as const;

const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8');

/** The walkthrough's commands: assignments and curl calls, in order. */
export function walkthroughCommands(): Command[] {
  return WALKTHROUGH.flatMap(([file, from, to]) => {
    const text = read(file);
    const start = from ? text.indexOf(from) : 0;
    const end = to ? text.indexOf(to) : text.length;
    if (start < 0 || end < start) throw new Error(`${file} has no "${from}" before "${to}"`);
    return commandsIn(text.slice(start, end));
  });
}

/** The documents a reader runs lines of: the README and every document under docs/. */
export const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Every curl line of the README and the docs, and those the walkthrough runs: the same (a test holds them equal). */
export const readmeCurlLines = (): string[] =>
  DOCUMENTS.flatMap((file) =>
    read(file)
      .split('\n')
      .filter((l) => /^ {4}curl /.test(l))
      .map((l) => l.slice(4)),
  );

function commandsIn(part: string): Command[] {
  const commands: Command[] = [];
  let code: Command | undefined;
  for (const line of part.split('\n')) {
    if (!line.startsWith('    ')) {
      code = undefined;
      continue;
    }
    const text = line.slice(4);
    if (text.startsWith('#')) {
      if (code) code.shows += text.replace(/^#\s*/, '');
    } else if (text.startsWith('  ') && code) code.text += `\n${text}`;
    else if (/^(curl |[A-Z]+=)/.test(text)) {
      code = { text, shows: '' };
      commands.push(code);
    } else code = undefined; // another tool's command (deckctl): not the walkthrough's
  }
  return commands;
}

const expectedOf = (shows: string): Answer['expected'] => {
  const error = /^\{"error":\{"code":"(\w+)"/.exec(shows)?.[1];
  const meta = /"meta":(\{[^}]*\})/.exec(shows)?.[1];
  const status = /^(\d{3})$/.exec(shows.trim())?.[1];
  const lines = shows.startsWith('<') ? shows.split(/(?=<)/) : undefined;
  return {
    ...(error ? { error } : {}),
    ...(meta && !error ? { meta: JSON.parse(meta) } : {}),
    ...(status ? { status: Number(status) } : {}),
    ...(lines ? { lines } : {}),
  };
};

/** A command without the comment at its end (a `#` after whitespace, outside quotes, as bash reads it). */
function withoutComment(command: string): string {
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && /\s/.test(command[i - 1] ?? '')) return command.slice(0, i).trimEnd();
  }
  return command;
}

/** Runs the walkthrough against `baseUrl` as the account the runtime printed; every answer, in order. */
export async function runWalkthrough(baseUrl: string, demo: { userId: string; apiKey: string }): Promise<Answer[]> {
  const answers: Answer[] = [];
  const filled = { id: '', slug: '', cursor: '', etag: '', keyId: '', narrowKey: '', eventId: '' };
  const fill = (text: string) =>
    text
      .replaceAll(README_BASE, baseUrl)
      .replaceAll('<user_id>', demo.userId)
      .replaceAll('<api_key>', demo.apiKey)
      .replaceAll('<id from the create answer>', filled.id)
      .replaceAll('<share_slug>', filled.slug)
      .replaceAll('<meta.next_cursor>', filled.cursor)
      .replaceAll('<etag>', filled.etag)
      .replaceAll('<key_id>', filled.keyId)
      .replaceAll('<event_id>', filled.eventId)
      .replaceAll('<a key with decks:read and keys:manage>', filled.narrowKey);
  let shell = 'set -eu\n';
  for (const { text, shows } of walkthroughCommands()) {
    if (text.includes('<a key with decks:read and keys:manage>')) filled.narrowKey = await narrowKey(baseUrl, demo);
    const command = fill(text);
    if (/<[a-z_. ]+>/.test(command)) throw new Error(`a placeholder the walkthrough cannot fill: ${command}`);
    if (!command.startsWith('curl ')) {
      shell += `${command}\n`;
      continue;
    }
    const expected = expectedOf(shows);
    // A page piped to another command: what it printed, line by line.
    if (withoutComment(command).includes(' | ')) {
      const { stdout } = await run('bash', ['-c', `${shell}set -o pipefail\n${withoutComment(command)}`], { maxBuffer: 16 * 1024 * 1024 });
      answers.push({ command: text, status: 200, body: {}, expected, lines: stdout.trim().split('\n') });
      continue;
    }
    // The status after the answer; a trailing comment of the README's is not part of the command.
    const call = `${withoutComment(command)} -w '\\n%{http_code}'`;
    const { stdout } = await run('bash', ['-c', `${shell}${call}`], { maxBuffer: 16 * 1024 * 1024 });
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    let text2 = stdout.slice(0, stdout.lastIndexOf('\n'));
    // Headers only (-D - -o /dev/null): an answer that is not JSON, its ETag kept for what follows.
    if (/ -o \/dev\/null/.test(command)) {
      filled.etag = /^etag: (.*)$/im.exec(text2)?.[1]?.trim() ?? filled.etag;
      answers.push({ command: text, status, body: {}, expected });
      continue;
    }
    if (/^curl -si /.test(command)) text2 = text2.slice(text2.indexOf('\r\n\r\n') + 4);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text2);
    } catch {
      throw new Error(`not a JSON answer to ${command}:\n${stdout.slice(0, 2000)}`);
    }
    const body = parsed as {
      data?: { id?: string; share_slug?: string; key_id?: string; event_id?: string };
      meta?: { next_cursor?: string | null };
    };
    if (status === 201 && body.data?.id && body.data.share_slug) {
      filled.id ||= body.data.id;
      filled.slug = body.data.share_slug;
    }
    if (status === 201 && body.data?.key_id) filled.keyId = body.data.key_id;
    if (status === 201 && body.data?.event_id) filled.eventId = body.data.event_id;
    if (body.meta?.next_cursor) filled.cursor = body.meta.next_cursor;
    answers.push({ command: text, status, body, expected });
  }
  return answers;
}

/** A key of the demo account with decks:read and keys:manage only, made as its owner would (the keys API). */
async function narrowKey(baseUrl: string, demo: { userId: string; apiKey: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/users/${demo.userId}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: ['decks:read', 'keys:manage'], label: 'narrow' }),
  });
  const made = (await res.json()) as { data?: { api_key?: string } };
  if (res.status !== 201 || !made.data?.api_key) throw new Error(`a narrow key could not be made: ${res.status}`);
  return made.data.api_key;
}
