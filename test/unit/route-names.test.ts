/**
 * A route's name is the name it is exported by (issue 47): `export const likeDeck = { name: 'likeDeck', … }` in
 * every module of the route table, so that a name read in a log line, the document's operationId or a test finds
 * its declaration by that name. Read from the modules themselves: each exported declaration, its key and its name.
 * And a function's file is named after its route or worker.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#routes';
import { DAILY_WORKERS, VIEW_SUBSCRIPTION, WORKERS } from '#routes/workers.ts';

const DIR = join(import.meta.dirname, '../../lib/routes');

describe('route names', () => {
  it('every exported route declaration is named by its export', async () => {
    const seen: string[] = [];
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) {
      const module = (await import(join(DIR, file))) as Record<string, unknown>;
      for (const [key, value] of Object.entries(module)) {
        if (typeof value !== 'object' || value === null || !('method' in value) || !('path' in value) || !('handler' in value)) continue;
        expect([file, key, (value as unknown as { name: unknown }).name]).toEqual([file, key, key]);
        seen.push(key);
      }
    }
    // Every route of the table was found so (none declared where this does not look).
    expect(new Set(seen)).toEqual(new Set(ROUTES.map((r) => r.name)));
  });

  it("every function's file is named after what it runs: functions/<route-name>.ts, functions/<worker-name>-worker.ts", () => {
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    for (const route of ROUTES) expect([route.name, route.handler]).toEqual([route.name, `functions/${kebab(route.name)}.ts`]);
    for (const worker of [...WORKERS, VIEW_SUBSCRIPTION, ...DAILY_WORKERS])
      expect([worker.name, worker.handler]).toEqual([worker.name, `functions/${kebab(worker.name)}-worker.ts`]);
    expect(readdirSync(join(import.meta.dirname, '../../functions')).length).toBe(
      ROUTES.length + WORKERS.length + 1 + DAILY_WORKERS.length,
    );
  });
});
