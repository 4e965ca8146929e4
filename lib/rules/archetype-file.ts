/**
 * A rules file's text read (lib/archetypes/<period>.json, `deckctl archetypes check --rules`): what it breaks named by
 * its line — a syntax error by line and column, a key given twice in an object (JSON.parse keeps the last, so a rule's
 * second `main` would silently win), and every check of lib/rules/archetypes.ts by the line of the value's path.
 */
import { ArchetypeRulesError, type ArchetypeRulesFile, checkArchetypeRules } from './archetypes.ts';
import type { Catalogue } from './catalogue.ts';

/**
 * Where each value of a JSON text is: its line (1-based) by its path (`archetypes.3.holds.0.card`, as valibot's dot
 * paths), for messages that name the line; and the first key an object gives twice (JSON.parse keeps the last, so a
 * rule's second `main` would silently win). The text has parsed already: the scan trusts its shape.
 */
function scanJson(text: string): { lines: Map<string, number>; twice?: { path: string; line: number } } {
  const lines = new Map<string, number>();
  const path: (string | number)[] = [];
  const frames: { kind: '{' | '['; keys: Set<string> }[] = [];
  let line = 1;
  let twice: { path: string; line: number } | undefined;
  let key = false;
  const value = () => lines.set(path.join('.'), line);
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const frame = frames.at(-1);
    if (c === '\n') line++;
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (key && frame) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (frame.keys.has(name) && !twice) twice = { path: [...path, name].join('.'), line };
        frame.keys.add(name);
        path.push(name);
        key = false;
      } else value();
      i = end;
    } else if (c === '{' || c === '[') {
      value();
      frames.push({ kind: c, keys: new Set() });
      if (c === '[') path.push(0);
      else key = true;
    } else if (c === '}' || c === ']') {
      frames.pop();
      if (c === ']' || frame?.keys.size) path.pop();
      key = false;
    } else if (c === ',') {
      if (frame?.kind === '[') path.push((path.pop() as number) + 1);
      else {
        path.pop();
        key = true;
      }
    } else if (/[-0-9tfn]/.test(c) && !key) {
      value();
      while (i + 1 < text.length && /[-+.0-9eEtruefalsn]/.test(text[i + 1] as string)) i++;
    }
  }
  return { lines, twice };
}

/** The line of a path's value, or of the nearest value holding it. */
const lineAt = (lines: ReadonlyMap<string, number>, path: string): number => {
  for (let p = path; ; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
    const found = lines.get(p);
    if (found !== undefined || p === '') return found ?? 1;
  }
};

/** The line and column of a JSON.parse error's position, where its message gives one. */
const whereInText = (text: string, message: string): string => {
  const at = /position (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
  if (offset === undefined) return '';
  const before = text.slice(0, offset);
  return `:${before.split('\n').length}:${before.length - before.lastIndexOf('\n')}`;
};

/** A rules file read, or an ArchetypeRulesError naming the line (and the value's path); a leading byte-order mark is taken off. */
export function readArchetypeRules(text: string, catalogue: Catalogue, file = 'the rules file'): ArchetypeRulesFile {
  const body = text.replace(/^\uFEFF/, '');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    const message = (e as Error).message.replace(/\s+/g, ' ');
    throw new ArchetypeRulesError(`${file}${whereInText(body, message)}: not JSON (${message})`);
  }
  const { lines, twice } = scanJson(body);
  if (twice) throw new ArchetypeRulesError(`${file}:${twice.line}: ${twice.path} is given twice (JSON keeps the last: say it once)`);
  return checkArchetypeRules(json, catalogue, (path) => `${file}:${lineAt(lines, path)}`);
}
