/** HTTP helpers for the API tests: requests against the run's local runtime, owners with keys. */
import { expect, inject } from 'vitest';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES, type Scope } from '#auth/keys.ts';
import { catalogueTag, DEMO_CATALOGUE_FILE, demoCatalogue } from '#catalogue/load.ts';
import type { FactionId } from '#rules/factions.ts';
import { checkAgainstDocument } from './contract.ts';
import { deckableCards, legalCode } from './decks.ts';

/** The API under test: the run's shared runtime, unless a test file started its own (API_BASE_URL). */
export const baseUrl = () => process.env.API_BASE_URL ?? inject('baseUrl');

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  body: any;
  text: string;
  /** The body's bytes (an image). */
  bytes: Buffer;
}

export interface Call {
  key?: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
  /** 'manual': a redirect (308) is the answer, not followed. */
  redirect?: 'manual';
}

export async function call(method: string, path: string, opts: Call = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: opts.redirect ?? 'follow' });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // Every answer of the HTTP tests is held to the served OpenAPI document.
  await checkAgainstDocument(baseUrl(), method, path, { status: res.status, headers: res.headers, body: parsed });
  return { status: res.status, headers: res.headers, body: parsed, text, bytes };
}

export interface Owner {
  userId: string;
  key: string;
  keyId: string;
  displayName: string;
  decks: string;
}

let owners = 0;
export async function newOwner(scopes: readonly Scope[] = SCOPES, name = `Player ${++owners}`): Promise<Owner> {
  const account = await createAccount(name);
  const { key, apiKey } = await issueKey(account.user_id, [...scopes]);
  return { userId: account.user_id, key: apiKey, keyId: key.key_id, displayName: name, decks: `/api/v1/users/${account.user_id}/decks` };
}

export const demo = demoCatalogue();
/** The demo catalogue's version, as the links to an image carry it (`catalogue=`: lib/public/language.ts imageQuery). */
export const DEMO_VERSION = catalogueTag(DEMO_CATALOGUE_FILE);
/** A legal demo-catalogue code; `offset` varies the cards. */
export const code = (main: FactionId = 'soviet', ally: FactionId = 'usa', offset = 0, allyCopies = 12) =>
  legalCode(demo, main, ally, allyCopies, offset);

/** Demo cards of a faction that can stand in decks. */
export const deckable = (faction: string) => deckableCards(demo, faction);

export async function createDeck(owner: Owner, body: Record<string, unknown> = {}): Promise<Reply> {
  const reply = await call('POST', owner.decks, { key: owner.key, body: { deck_code: code(), guide: { system: 'Tempo' }, ...body } });
  if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${reply.text}`);
  return reply;
}

/** Paths and codes of a 422's details. */
export const details = (r: Reply): [string, string][] =>
  (r.body?.error?.details ?? []).map((d: { path: string; code: string }) => [d.path, d.code]);

/**
 * Walks a public search (`query`: its parameters as a query string, without limit and cursor) by
 * next_cursor to its end: the share slugs in order and each page's meta. Every page is 200 and says
 * has_more exactly when it gives a cursor.
 */
export async function walkSearch(query: string, limit: number): Promise<{ slugs: string[]; metas: Record<string, unknown>[] }> {
  const slugs: string[] = [];
  const metas: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const qs = `${query}${query ? '&' : ''}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await call('GET', `/api/v1/decks?${qs}`);
    expect(r.status, r.text).toBe(200);
    slugs.push(...r.body.data.map((d: { share_slug: string }) => d.share_slug));
    metas.push(r.body.meta);
    cursor = r.body.meta.next_cursor;
    expect(r.body.meta.has_more).toBe(cursor !== null);
    expect(metas.length).toBeLessThan(100);
  } while (cursor);
  return { slugs, metas };
}
