/** What a run of the README's walkthrough must show, wherever it runs (readme.ts runs it). */
import { expect } from 'vitest';
import type { Answer } from './readme.ts';

export function expectWalkthrough(answers: Answer[]): void {
  for (const a of answers) {
    const body = a.body as { error?: { code: string }; data?: unknown; meta?: unknown };
    if (a.expected.lines) {
      // A page piped to grep: the lines the README shows, each of the same tag (their values are the run's).
      const tag = (l: string) => /^<meta property="([^"]+)"/.exec(l)?.[1] ?? l;
      expect([a.command, a.lines?.map(tag)]).toEqual([a.command, a.expected.lines.map(tag)]);
      continue;
    }
    if (a.expected.status) {
      expect([a.command, a.status]).toEqual([a.command, a.expected.status]);
      continue;
    }
    if (a.expected.error) {
      expect([a.command, a.status >= 400 && a.status < 500, body.error?.code]).toEqual([a.command, true, a.expected.error]);
      continue;
    }
    expect([a.command, a.status, body.error]).toEqual([a.command, a.status < 300 ? a.status : 'a success', undefined]);
    if (a.expected.meta) expect([a.command, body.meta]).toEqual([a.command, a.expected.meta]);
  }
  // The search examples find the walkthrough's decks (the README shows them found), and the first page
  // of one has a next page.
  const searches = answers.filter((a) => /\/api\/v1\/decks\?(?!.*card=ZZ)/.test(a.command));
  expect(searches.length).toBeGreaterThanOrEqual(5);
  for (const s of searches) expect([s.command, ((s.body as { data: unknown[] }).data ?? []).length > 0]).toEqual([s.command, true]);
  expect(answers.some((a) => a.command.includes('cursor=<meta.next_cursor>'))).toBe(true);
  // The deck is deleted at the end of the owner calls, and was there to delete.
  const deleted = answers.find((a) => /-X DELETE .*\$API\/\$D$/.test(a.command));
  expect(deleted?.status).toBe(200);
  // The account is erased last: the erasure answers 200, then its key is 401 and its decks' slugs 404.
  const erased = answers.findIndex((a) => a.command.includes('"confirm":"\'$U\'"'));
  expect(answers[erased]?.status).toBe(200);
  expect(answers.slice(erased + 1).map((a) => a.status)).toEqual([401, 404]);
}
