/**
 * functions/ holds the handler module of each route and worker, and nothing else: a handler's path follows from its
 * name (lib/routes/route.ts handlerOf), so a function file no route or worker names is dead. (knip, in `npm run
 * lint`, finds dead exports and files everywhere else: it takes every function file for an entry.)
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#routes';
import { DAILY_WORKERS, VIEW_SUBSCRIPTION, WEBHOOK_DELIVERIES, WORKERS } from '#routes/workers.ts';

describe('functions', () => {
  it("functions/ is the route table's and the workers' handler modules, each once, and nothing else", () => {
    const handlers = [...ROUTES, ...WORKERS, VIEW_SUBSCRIPTION, ...DAILY_WORKERS, WEBHOOK_DELIVERIES].map((r) => r.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
    const files = readdirSync(join(import.meta.dirname, '../../functions')).map((f) => `functions/${f}`);
    expect(files.sort()).toEqual(handlers.sort());
  });
});
