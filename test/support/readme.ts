/**
 * The README's curl walkthrough, run as a reader would: its commands in the README's order (from "Try
 * the owner API with curl" to "The API reference"), by bash and curl, against a runtime, with the
 * placeholders a reader fills in taken from the answers before them (the printed demo account, the
 * create answer's id and share slug, a page's next cursor). Each command's expected answer is read from
 * the README too: an answer shown as an error envelope is that error, any other command succeeds; a page
 * shown with its `meta` answers that `meta`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  /** What the README says it answers: an error code, a meta, or success. */
  expected: { error?: string; meta?: unknown };
}

/** The walkthrough's commands: assignments and curl calls, in order. */
export function walkthroughCommands(readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')): Command[] {
  const start = readme.indexOf('## Try the owner API with curl');
  const end = readme.indexOf('## The API reference');
  if (start < 0 || end < start) throw new Error('the README has no curl walkthrough where it used to be');
  const commands: Command[] = [];
  let code: Command | undefined;
  for (const line of readme.slice(start, end).split('\n')) {
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
  return { ...(error ? { error } : {}), ...(meta && !error ? { meta: JSON.parse(meta) } : {}) };
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
  const filled = { id: '', slug: '', cursor: '' };
  const fill = (text: string) =>
    text
      .replaceAll(README_BASE, baseUrl)
      .replaceAll('<user_id>', demo.userId)
      .replaceAll('<api_key>', demo.apiKey)
      .replaceAll('<id from the create answer>', filled.id)
      .replaceAll('<share_slug>', filled.slug)
      .replaceAll('<meta.next_cursor>', filled.cursor);
  let shell = 'set -eu\n';
  for (const { text, shows } of walkthroughCommands()) {
    const command = fill(text);
    if (/<[a-z_. ]+>/.test(command)) throw new Error(`a placeholder the walkthrough cannot fill: ${command}`);
    if (!command.startsWith('curl ')) {
      shell += `${command}\n`;
      continue;
    }
    // The status after the answer; a trailing comment of the README's is not part of the command.
    const call = `${withoutComment(command)} -w '\\n%{http_code}'`;
    const { stdout } = await run('bash', ['-c', `${shell}${call}`], { maxBuffer: 16 * 1024 * 1024 });
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    let text2 = stdout.slice(0, stdout.lastIndexOf('\n'));
    if (/^curl -si /.test(command)) text2 = text2.slice(text2.indexOf('\r\n\r\n') + 4);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text2);
    } catch {
      throw new Error(`not a JSON answer to ${command}:\n${stdout.slice(0, 2000)}`);
    }
    const body = parsed as { data?: { id?: string; share_slug?: string }; meta?: { next_cursor?: string | null } };
    if (status === 201 && body.data?.id && body.data.share_slug) {
      filled.id ||= body.data.id;
      filled.slug = body.data.share_slug;
    }
    if (body.meta?.next_cursor) filled.cursor = body.meta.next_cursor;
    answers.push({ command: text, status, body, expected: expectedOf(shows) });
  }
  return answers;
}
