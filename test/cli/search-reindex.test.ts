/**
 * `deckctl search reindex`: a public deck stored before card search (entries without card facets and
 * without `cards`) is found by its cards once the command has run; running it again changes nothing.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { documentClient } from '#store/client.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, code, createDeck, newOwner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';

/** The deck's entries as the version before card search wrote them. */
async function asBeforeCardSearch(deckId: string): Promise<number> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(DECKS),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SEARCH#${deckId}` },
    }),
  );
  for (const { pk, sk } of Items) {
    const Key = { pk, sk };
    await documentClient().send(
      String(sk).startsWith('card:')
        ? new DeleteCommand({ TableName: tableName(DECKS), Key })
        : new UpdateCommand({ TableName: tableName(DECKS), Key, UpdateExpression: 'REMOVE cards' }),
    );
  }
  return Items.length;
}

const found = async (qs: string, slug: string) =>
  (await call('GET', `/api/v1/decks?${qs}&limit=50`)).body.data.some((d: { share_slug: string }) => d.share_slug === slug);

describe('deckctl search reindex', () => {
  it('gives decks stored before card search their card entries; a second run changes nothing', async () => {
    const owner = await newOwner();
    const deckCode = code('germany', 'italy', 7);
    const { id, share_slug } = (await createDeck(owner, { deck_code: deckCode, visibility: 'public', tags: ['reindexed'] })).body.data;
    const [first, second] = parseDeckCode(deckCode).cards.map((c) => c.card_id);
    expect(await asBeforeCardSearch(id)).toBeGreaterThan(4);
    expect(await found(`card=${first}&tag=reindexed`, share_slug)).toBe(false);
    expect(await found(`tag=reindexed&card=${second}`, share_slug)).toBe(false);

    const env = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint') };
    const run = await deckctl(['search', 'reindex', '--json'], env);
    expect(run.status, run.stderr).toBe(0);
    const tally = JSON.parse(run.stdout);
    expect(tally.decks).toBeGreaterThanOrEqual(1);
    expect(tally.rewritten + tally.changed_meanwhile).toBe(tally.decks);
    expect(await found(`card=${first}&tag=reindexed`, share_slug)).toBe(true);
    expect(await found(`card=${first}&card=${second}&tag=reindexed`, share_slug)).toBe(true);
    expect(await found(`card=${first}&exclude_card=${second}&tag=reindexed`, share_slug)).toBe(false);

    const again = await deckctl(['search', 'reindex'], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/public decks: \d+ reindexed/);
    expect(await found(`card=${first}&tag=reindexed`, share_slug)).toBe(true);
    // It walks every public deck of the run's shared store (hundreds by now): give it the time.
  }, 180_000);
});
