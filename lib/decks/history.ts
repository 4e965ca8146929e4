/**
 * A deck's history (contract §9.2), as its owner and the public page through it: the version in a path,
 * the signed cursors of both lists, and a page of versions in the shape each may see.
 */
import { openCursor, signCursor } from '#http/cursor.ts';
import { invalidParameter } from '#http/errors.ts';
import { PUBLIC_CHANGES, type PublicChange } from '#rules/changed-fields.ts';
import type * as S from '#shapes/responses.ts';
import type { Out } from '#shapes/responses.ts';
import type { VersionSummary } from '#store/items/version.ts';
import { listVersions } from '#store/versions.ts';

/** Whose history a cursor walks: an owner's deck (by id) or a shared deck (by slug). A cursor only continues its own list. */
type Walk = { kind: 'owner' | 'shared'; of: string };

interface HistoryCursor {
  page: number;
  before: number;
}

const encode = (walk: Walk, c: HistoryCursor) => signCursor(['versions', walk.kind, walk.of, c.page, c.before]);

async function decode(walk: Walk, raw: string | undefined): Promise<HistoryCursor | undefined> {
  if (raw === undefined) return undefined;
  const value = await openCursor(raw);
  if (Array.isArray(value)) {
    const [tag, kind, of, page, before] = value as unknown[];
    if (
      tag === 'versions' &&
      kind === walk.kind &&
      of === walk.of &&
      Number.isInteger(page) &&
      Number.isInteger(before) &&
      (before as number) > 1
    )
      return { page: page as number, before: before as number };
  }
  throw invalidParameter('cursor is not one this API issued for this list');
}

/** One page of a deck's history, newest first, in the shape its reader may see. */
export async function historyPage<T>(
  walk: Walk,
  deck: { user_id: string; id: string },
  query: { limit: number; cursor?: string | undefined },
  shape: (v: VersionSummary) => T,
) {
  const { limit } = query;
  const cursor = await decode(walk, query.cursor);
  const page = cursor?.page ?? 1;
  const { items, more } = await listVersions(deck.user_id, deck.id, limit, { before: cursor?.before, publicOnly: walk.kind === 'shared' });
  const last = items.at(-1);
  return {
    data: items.map(shape),
    meta: { page, limit, has_more: more, next_cursor: more && last ? await encode(walk, { page: page + 1, before: last.version }) : null },
  };
}

/** What every item of a history shows of a version, the owner's and the public's alike. */
const versionFields = (v: VersionSummary) => ({
  version: v.version,
  updated_at: v.updated_at,
  deck_code: v.deck_code,
  name: v.name,
  main_faction: v.main_faction,
  ally_faction: v.ally_faction,
});

/** An item of the owner's history. */
export const ownerVersionItem = (v: VersionSummary): Out<typeof S.VersionListItem> => ({
  ...versionFields(v),
  visibility: v.visibility,
  changed: v.changed,
  cards: v.cards,
});

const shownChange = (f: string): f is PublicChange => (PUBLIC_CHANGES as readonly string[]).includes(f);

/**
 * An item of a public deck's history: no visibility; of `changed`, only what the public sees. The first
 * version shown after private ones shows no change: what it changed from was never public.
 */
export function publicVersionItem(v: VersionSummary): Out<typeof S.PublicVersionListItem> {
  const afterPrivate = v.prior_visibility === 'private';
  return {
    ...versionFields(v),
    changed: afterPrivate ? [] : v.changed.filter(shownChange),
    cards: afterPrivate ? { added: [], removed: [] } : v.cards,
  };
}
