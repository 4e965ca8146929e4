/** What a run of the README's walkthrough must show, wherever it runs (readme.ts runs it). */
import { expect } from 'vitest';
import type { Answer } from './readme.ts';

export function expectWalkthrough(answers: Answer[]): void {
  for (const a of answers) {
    const body = a.body as { error?: { code: string }; data?: unknown; meta?: unknown };
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
  // The deck is deleted last, and was there to delete.
  expect(answers.at(-1)?.command).toMatch(/-X DELETE/);
  expect(answers.at(-1)?.status).toBe(200);
}
