/**
 * `deckctl archetypes apply` (contract §13.3): after a rules change, stored decks — public and private — are given the
 * archetype the rules in use give them, their search entries with them (search by archetype follows); a deck no rule
 * takes keeps its cluster; nothing else of a deck changes (no version); a second run leaves them as they are.
 * The rules of before are stood in for by archetypes written into the store as an older service would have kept them.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import type { KeptArchetype } from '#rules/deck-model.ts';
import { documentClient } from '#store/client.ts';
import { deleteDeck, getDeck, reclassifyDeck, replaceDeck } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, code, createDeck, newOwner, type Owner, walkSearch } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';

const SOVIET = { id: 'soviet-grey-rifles-thistle', name: 'Soviet Union · Volga Grey Rifles and Volga Thistle Mk I', by: 'rule' };
/** A demo code of the Soviet Union the demo rule takes (it holds two of 2B and two of 2C), or one it does not. */
const sovietCode = (taken: boolean) => {
  for (let offset = 0; offset < 60; offset++) {
    const c = code('soviet', 'usa', offset);
    const copies = new Map(parseDeckCode(c).cards.map((x) => [x.card_id, x.count]));
    if (((copies.get('2B') ?? 0) >= 2 && (copies.get('2C') ?? 0) >= 2) === taken) return c;
  }
  throw new Error('no such demo code');
};

/** A deck's archetype made what an older service kept (the store's own reclassification, as `apply` writes it). */
async function keptBefore(owner: Owner, id: string, archetype: KeptArchetype) {
  const deck = await getDeck(owner.userId, id);
  if (!deck) throw new Error('no deck');
  expect(await reclassifyDeck(deck, archetype)).toBe('ok');
}
const facetsOf = async (id: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `SEARCH#${id}` },
      }),
    )
  ).Items?.map((i) => i.sk as string) ?? [];

describe('deckctl archetypes apply', () => {
  it('gives stored decks the rules’ archetypes, entries with them; keeps a cluster; a second run changes nothing', async () => {
    const owner = await newOwner();
    const tag = `apply-${Date.now().toString(36)}`;
    const made = async (deckCode: string, visibility: string) =>
      (await createDeck(owner, { deck_code: deckCode, visibility, tags: [tag] })).body.data as {
        id: string;
        share_slug: string;
        version: number;
      };
    const taken = await made(sovietCode(true), 'public');
    const left = await made(sovietCode(false), 'public');
    const clustered = await made(sovietCode(false), 'public');
    const hidden = await made(sovietCode(true), 'private');
    // As an older service's rules left them: a retired rule's archetype, a rule's that no longer takes the deck, a cluster's, none.
    const retired = { id: 'retired-rule', name: 'Retired', by: 'rule' } as const;
    const cluster = { id: 'cluster-soviet-2b', name: 'Soviet Union · 2B', by: 'cluster' } as const;
    await keptBefore(owner, taken.id, retired);
    await keptBefore(owner, left.id, { ...SOVIET, by: 'rule' });
    await keptBefore(owner, clustered.id, cluster);
    await keptBefore(owner, hidden.id, null);
    expect((await walkSearch(`archetype=retired-rule&tag=${tag}`, 10)).slugs).toEqual([taken.share_slug]);
    expect((await walkSearch(`archetype=${SOVIET.id}&tag=${tag}`, 10)).slugs).toEqual([left.share_slug]);
    expect(await facetsOf(taken.id)).toContain('archetype:retired-rule');

    const env = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint') };
    const run = await deckctl(['archetypes', 'apply', '--json'], env);
    expect(run.status, run.stderr).toBe(0);
    const tally = JSON.parse(run.stdout);
    expect(tally.rules).toBe('lib/archetypes/demo.json');
    expect(tally.reclassified).toBeGreaterThanOrEqual(3);
    expect(tally.reclassified + tally.unchanged + tally.changed_meanwhile + tally.unreadable).toBe(tally.decks);

    const read = async (d: { id: string }) => (await call('GET', `${owner.decks}/${d.id}`, { key: owner.key })).body.data;
    expect((await read(taken)).archetype).toEqual(SOVIET);
    expect((await read(left)).archetype).toBeNull();
    expect((await read(clustered)).archetype).toEqual(cluster);
    expect((await read(hidden)).archetype).toEqual(SOVIET);
    // Nothing else of a deck changed: its version is the one it was created at.
    expect((await read(taken)).version).toBe(taken.version);
    expect((await walkSearch(`archetype=retired-rule&tag=${tag}`, 10)).slugs).toEqual([]);
    expect(await facetsOf(taken.id)).not.toContain('archetype:retired-rule');
    expect(await facetsOf(taken.id)).toContain(`archetype:${SOVIET.id}`);
    expect((await walkSearch(`archetype=${SOVIET.id}&tag=${tag}`, 10)).slugs).toEqual([taken.share_slug]);
    expect((await walkSearch(`archetype=${cluster.id}&tag=${tag}`, 10)).slugs).toEqual([clustered.share_slug]);
    const listed = (await call('GET', `/api/v1/decks?tag=${tag}&limit=10`)).body.data;
    expect(Object.fromEntries(listed.map((d: { share_slug: string; archetype: unknown }) => [d.share_slug, d.archetype]))).toEqual({
      [taken.share_slug]: SOVIET,
      [left.share_slug]: null,
      [clustered.share_slug]: cluster,
    });

    // Again: these decks are as the rules give them, and stay so.
    const before = await Promise.all([taken, left, clustered, hidden].map((d) => getDeck(owner.userId, d.id)));
    const again = await deckctl(['archetypes', 'apply'], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^lib\/archetypes\/demo\.json: \d+ decks, \d+ reclassified, \d+ unchanged, \d+ changed meanwhile/);
    expect(await Promise.all([taken, left, clustered, hidden].map((d) => getDeck(owner.userId, d.id)))).toEqual(before);
    // It walks every deck of the run's shared store (hundreds by now): give it the time.
  }, 180_000);

  it('a write that read the deck before apply changed its archetype is refused, and done again on the deck as it is: no entry left behind', async () => {
    const owner = await newOwner();
    const tag = `apply-race-${Date.now().toString(36)}`;
    const made = async () =>
      (await createDeck(owner, { deck_code: sovietCode(true), visibility: 'public', tags: [tag] })).body.data as {
        id: string;
        share_slug: string;
      };
    const [hidden, deleted] = [await made(), await made()];
    // Read by a writer, then reclassified (as apply does) before the writer's write lands (hostile review).
    const stale = await Promise.all([hidden, deleted].map((d) => getDeck(owner.userId, d.id)));
    const other = { id: 'cluster-soviet-raced', name: 'Soviet Union · raced', by: 'cluster' } as const;
    await keptBefore(owner, hidden.id, other);
    await keptBefore(owner, deleted.id, other);
    const [staleHidden, staleDeleted] = stale as [StoredDeck, StoredDeck];
    expect(await replaceDeck({ ...staleHidden, visibility: 'private', version: staleHidden.version + 1 }, staleHidden)).toBe(false);
    expect(await deleteDeck(staleDeleted)).toBe(false);
    expect(await facetsOf(hidden.id)).toContain('archetype:cluster-soviet-raced');
    // Through the API (a write reads the deck again when it lost): nothing of either is found by its archetype.
    expect((await call('PATCH', `${owner.decks}/${hidden.id}`, { key: owner.key, body: { visibility: 'private' } })).status).toBe(200);
    expect((await call('DELETE', `${owner.decks}/${deleted.id}`, { key: owner.key, body: {} })).status).toBe(200);
    expect(await facetsOf(hidden.id)).toEqual([]);
    expect(await facetsOf(deleted.id)).toEqual([]);
    expect((await walkSearch(`archetype=${other.id}&tag=${tag}`, 10)).slugs).toEqual([]);
  });

  it('refuses the demo rules against a deployed store (--aws without the catalogue the service runs with)', async () => {
    const r = await deckctl(['archetypes', 'apply', '--aws'], { CATALOGUE_FILE: '', AWS_REGION: 'eu-west-1' });
    expect([r.status, /demo one/.test(r.stderr)]).toEqual([1, true]);
  });
});
