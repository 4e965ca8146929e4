/**
 * Grants no wider than their use (issue 32, item 11): after `vitest run`, every part of every function's
 * grants — an action on a table, through one index or on one item kind's keys — must have been used by
 * some request the tests sent to that function (the local grants guard records each use: GRANTS_USED_DIR).
 * The grants every owner route or every cursor route holds alike (reading API keys; reading and, on a
 * fresh store, making the cursor keys) count as used when any function holding them used them: the first
 * cursor request of a deployment makes the keys, whichever route it is.
 * Usage: tsx scripts/grants-used.ts <dir>   (exits 1, naming each unused part)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTH_GRANT, CATALOGUE_GRANT, CURSOR_KEYS_GRANT, type Grant, type Grantee, ROUTES } from '#routes';
import { DAY_OPENER, WEBHOOK_DELIVERIES, WORKERS } from '#routes/workers.ts';
import { type GrantUse, grantParts } from '../infra/local/grants-guard.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx scripts/grants-used.ts <GRANTS_USED_DIR>');

const key = (u: GrantUse, who = u.who) => `${who} ${u.table} ${u.action} ${u.on}`;
const SHARED: [string, Grant][] = [
  ['(every owner route)', AUTH_GRANT],
  ['(every cursor route)', CURSOR_KEYS_GRANT],
  ['(every catalogue route)', CATALOGUE_GRANT],
];
const sharedOf = (u: GrantUse) =>
  SHARED.find(([, g]) => g.table === u.table && (g.actions as string[]).includes(u.action) && (g.leadingKeys ?? []).includes(u.on))?.[0];

const used = new Set<string>();
for (const file of readdirSync(dir))
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
    const use = JSON.parse(line) as GrantUse;
    used.add(key(use, sharedOf(use) ?? use.who));
  }

const granted = new Set<string>();
for (const who of [...ROUTES, ...WORKERS, DAY_OPENER, WEBHOOK_DELIVERIES] as Grantee[])
  for (const part of grantParts(who)) granted.add(key(part, sharedOf(part) ?? part.who));
const unused = [...granted].filter((part) => !used.has(part)).sort();
console.log(
  `grants: ${granted.size} parts over ${ROUTES.length} routes and ${WORKERS.length} workers; used by the tests: ${granted.size - unused.length}`,
);
if (unused.length > 0) {
  console.error(
    `granted but used by no request of the tests (trim the grant, or test the request that needs it):\n  ${unused.join('\n  ')}`,
  );
  process.exit(1);
}
