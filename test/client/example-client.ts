/**
 * A small typed client of the API, as a client developer would write one: types generated from the
 * served document by openapi-typescript (`npm run lint:api` writes .openapi/schema.d.ts), calls made
 * with openapi-fetch. `tsc` type-checks it in `npm test`, so the document must give concrete types:
 * reading `share_slug` of a search item or `meta.next_cursor` would not compile on `unknown`.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../.openapi/schema.d.ts';

/** An error answer's code: the envelope's, or API Gateway's own throttling answer (documented as such). */
const codeOf = (e: { error: { code: string } } | { message: string } | undefined) =>
  e === undefined ? undefined : 'error' in e ? e.error.code : 'throttled';

export async function tourOfTheApi(baseUrl: string, userId: string, apiKey: string, deckCode: string, tag: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
  const path = { user_id: userId };

  const created = await api.POST('/api/v1/users/{user_id}/decks', {
    params: { path },
    body: { deck_code: deckCode, guide: { system: 'Typed client' }, visibility: 'public', tags: [tag] },
  });
  if (!created.data) throw new Error(`create: ${codeOf(created.error)}`);
  const deck = created.data.data;
  const version: number = deck.version;

  const patched = await api.PATCH('/api/v1/users/{user_id}/decks/{deck_id}', {
    params: { path: { ...path, deck_id: deck.id }, header: { 'If-Match': `"${version}"` } },
    body: { sort_order: 3 },
  });
  if (!patched.data) throw new Error(`patch: ${codeOf(patched.error)}`);
  const stale = await api.PATCH('/api/v1/users/{user_id}/decks/{deck_id}', {
    params: { path: { ...path, deck_id: deck.id }, header: { 'If-Match': `"${version}"` } },
    body: { sort_order: 4 },
  });
  const staleCode: string | undefined = codeOf(stale.error);

  const read = await api.GET('/api/v1/users/{user_id}/decks/{deck_id}', { params: { path: { ...path, deck_id: deck.id } } });
  const sortOrder: number | undefined = read.data?.data.sort_order;

  const first = await api.GET('/api/v1/decks', { params: { query: { tag, limit: 1 } } });
  if (!first.data) throw new Error(`search: ${codeOf(first.error)}`);
  const slug: string | undefined = first.data.data[0]?.share_slug;
  const cursor: string | null = first.data.meta.next_cursor;
  const next = cursor ? await api.GET('/api/v1/decks', { params: { query: { tag, limit: 1, cursor } } }) : undefined;
  const more: boolean | undefined = next?.data?.meta.has_more;

  const shared = slug ? await api.GET('/api/v1/decks/{share_slug}', { params: { path: { share_slug: slug } } }) : undefined;
  const author: string | undefined = shared?.data?.data.author.display_name;

  return { id: deck.id, version: patched.data.data.version, staleCode, sortOrder, slug, cursor, more, author };
}
