/// <reference types="vite/client" />
/**
 * A key prefix is spelled in its item module only (lib/store/items/): grants, stream filters, worker
 * dispatch, cursor checks, queries and the benchmark all use the module's constant (ItemKind: prefix, grant,
 * owns). This reads every source file of the service and its tools and finds no literal of one elsewhere.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT } from '#store/items/account.ts';
import { CURSOR_KEYS } from '#store/items/cursor-keys.ts';
import { DECK } from '#store/items/deck.ts';
import type { ItemKind } from '#store/items/kind.ts';
import { VERSION } from '#store/items/version.ts';
import { INDEX_TABLES, TABLES } from '#store/tables.ts';

const ROOT = join(import.meta.dirname, '../..');
/**
 * Every item kind the item modules export, found in them (a list kept by hand missed VIEW_COUNT, so that "no source
 * spells a prefix" could not fail for it): each export made by itemKind (a prefix, a grant and an owner test).
 */
const isKind = (value: unknown): value is ItemKind =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ItemKind).prefix === 'string' &&
  typeof (value as ItemKind).grant === 'string' &&
  typeof (value as ItemKind).owns === 'function';
const KINDS: ItemKind[] = Object.values(import.meta.glob('../../lib/store/items/*.ts', { eager: true })).flatMap((module) =>
  Object.values(module as Record<string, unknown>).filter(isKind),
);
/** Every prefix, and the sort-key prefixes the deck and version modules declare. */
const PREFIXES = [...new Set([...KINDS.map((k) => k.prefix), DECK.sk, VERSION.sk])];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|cjs|mjs)$/.test(name) ? [path] : [];
  });
}

describe('key prefixes', () => {
  it('the kinds are found in the item modules: every module of a kind, VIEW_COUNT among them', () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(20);
    expect(KINDS.map((k) => k.prefix)).toContain('VIEWCOUNT#');
  });

  it('docs/layout.md names every item module (issue 53: it missed items/catalogue.ts)', () => {
    const layout = readFileSync(join(ROOT, 'docs/layout.md'), 'utf8');
    const line = layout.slice(layout.indexOf('lib/store/items/'), layout.indexOf('lib/auth/'));
    const modules = readdirSync(join(ROOT, 'lib/store/items'))
      .filter((f) => f.endsWith('.ts') && f !== 'kind.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    expect(modules.filter((m) => !new RegExp(`\\b${m}\\b`).test(line))).toEqual([]);
  });

  it('each item kind owns one prefix, and owns the keys that start with it', () => {
    for (const kind of KINDS) {
      expect(kind.owns(`${kind.prefix}${kind === CURSOR_KEYS ? '' : 'x'}`), kind.prefix).toBe(true);
      expect(kind.owns(`Z${kind.prefix}`), kind.prefix).toBe(false);
    }
    // Two kinds share USER#, in two tables: the decks table's decks and the accounts table's accounts.
    expect(KINDS.filter((k) => k.prefix === 'USER#')).toEqual([ACCOUNT, DECK]);
  });

  it('no source outside lib/store/items/ spells one in a string (a quote or backtick, then the prefix)', () => {
    const files = ['lib', 'functions', 'infra', 'scripts', 'bin'].flatMap((d) => sources(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const where = relative(ROOT, file);
      if (where.startsWith('lib/store/items/')) continue;
      const text = readFileSync(file, 'utf8');
      for (const prefix of PREFIXES) {
        const quoted = new RegExp(`['"\`]${prefix.replace(/[#]/g, '\\#')}`, 'g');
        for (const m of text.matchAll(quoted)) found.push(`${where}: ${text.slice(m.index, m.index + prefix.length + 8)}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('index names (issue 47: a union the compiler checks)', () => {
  it('every table defines exactly the indexes the names say are its own, each once', () => {
    for (const table of TABLES) {
      const defined = [...table.globalIndexes, ...table.localIndexes].map((i) => i.indexName).sort();
      const named = Object.entries(INDEX_TABLES)
        .filter(([, t]) => t === table.id)
        .map(([name]) => name)
        .sort();
      expect(defined, table.id).toEqual(named);
    }
  });
});
