/**
 * The erasure worker's steps are bounded whatever the account's size (contract §9.4: "bounded background
 * work"): an account of 60 public decks, 130 likes given (10 of real decks, 120 of decks gone) and 130
 * remembered answers is erased step by step (eraseStep, in this process, on a DynamoDB Local of this
 * file's own with no worker beside it; its waits skipped by a clock past them), every call recorded. No
 * step deletes more than 25 decks, takes back more than 100 likes or deletes more than 100 records; the
 * steps are swept ×3, closed, ended; the real decks' counts go down; and what is left of the account is
 * only what the store-change worker purges on each deck's delete (its versions: not running here).
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { demoCatalogue } from '#catalogue/load.ts';
import { workerNamed } from '#routes/workers.ts';
import { documentClient } from '#store/client.ts';
import { countDecks, createDeck } from '#store/decks.ts';
import { eraseStep, STEP_LIMITS } from '#store/erasure-steps.ts';
import { requestErasure } from '#store/erasures.ts';
import { getCounts } from '#store/folds.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { erasureKey } from '#store/items/erasure.ts';
import { likedKey, likeKey } from '#store/items/like.ts';
import { rememberedAnswerKey } from '#store/items/remembered-answer.ts';
import { setLike } from '#store/likes.ts';
import { ACCOUNTS, DECKS, tableName } from '#store/tables.ts';
import { handleErasures, SETTLE_MS } from '#workers/erasure.ts';
import { lambdaContext } from '../../infra/local/events.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { type Call, operationOf, recordDynamo } from '../support/dynamo-recorder.ts';
import { THROTTLING } from '../support/fault-proxy.ts';
import { guardedStoreForFile, scanAll } from '../support/store.ts';

// The file's store calls go through a fault proxy; a worker's steps run with its grants only.
const store = guardedStoreForFile();
const worker = workerNamed('accountErasure');
const asWorker = <T>(fn: () => Promise<T>) => asRoute(worker, fn);

const cat = demoCatalogue();
const deckOf = (userId: string, author: string, i: number): StoredDeck =>
  storedDeck({
    user_id: userId,
    share_slug: `e${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    author_name: author,
    deck_code: legalCode(cat, 'soviet', 'usa', 12, i % 20),
    tags: ['aggro', `t${i % 7}`],
  });

/** The keys a call deleted (a transaction's deletes, a batch's, a DeleteItem), as `pk sk`. */
function deleted(c: Call): string[] {
  // The document client's input, as its commands are sent (attribute values not yet marshalled).
  type Key = Record<string, string>;
  const key = (k: Key) => `${k.pk} ${k.sk}`;
  const input = c.input as {
    Key?: Key;
    TransactItems?: { Delete?: { Key: Key } }[];
    RequestItems?: Record<string, { DeleteRequest?: { Key: Key } }[]>;
  };
  if (c.failed) return [];
  if (operationOf(c) === 'DeleteItem' && input.Key) return [key(input.Key)];
  if (operationOf(c) === 'TransactWriteItems') return (input.TransactItems ?? []).flatMap((t) => (t.Delete ? [key(t.Delete.Key)] : []));
  if (operationOf(c) === 'BatchWriteItem')
    return Object.values(input.RequestItems ?? {})
      .flat()
      .flatMap((r) => (r.DeleteRequest ? [key(r.DeleteRequest.Key)] : []));
  return [];
}

describe('the erasure worker, step by step', () => {
  it('each step is bounded (25 decks, 100 likes given, 100 records); swept ×3, closed, ended; counts go down', async () => {
    const leaving = await createAccount('Leaving with a large library');
    await issueKey(leaving.user_id, ['account:delete']);
    const other = await createAccount('Stays');
    for (let i = 0; i < 60; i++) expect(await createDeck(deckOf(leaving.user_id, leaving.display_name, i))).toBe('ok');
    // Likes given: 10 of real decks of another account, 120 of decks that are gone (no deck, no counter).
    const liked = Array.from({ length: 10 }, (_, i) => deckOf(other.user_id, other.display_name, i));
    for (const d of liked) {
      expect(await createDeck(d)).toBe('ok');
      expect(await setLike(d, leaving.user_id, true)).toBe('changed');
    }
    const doc = documentClient();
    const put = (Item: Record<string, unknown>) => doc.send(new PutCommand({ TableName: tableName(DECKS), Item }));
    for (let i = 0; i < 120; i++) {
      const slug = `gone${String(i).padStart(8, '0')}`;
      await put({ ...likeKey(slug, leaving.user_id), created_at: 'x' });
      await put({ ...likedKey(leaving.user_id, slug), created_at: 'x' });
    }
    for (let i = 0; i < 130; i++) await put({ ...rememberedAnswerKey(leaving.user_id, `h${i}`), expires_at: 1 });

    expect((await requestErasure(leaving.user_id, () => countDecks(leaving.user_id))).decks).toBe(60);
    const outcomes: string[] = [];
    const perStep: [number, number, number][] = [];
    const recorder = recordDynamo();
    try {
      // A clock past every wait: the steps run back to back.
      while (outcomes.length < 10 && !['ended', 'none'].includes(outcomes.at(-1) ?? '')) {
        recorder.reset();
        outcomes.push(
          await asWorker(() =>
            eraseStep(
              leaving.user_id,
              SETTLE_MS,
              () => Date.now() + 60_000,
              async () => undefined,
            ),
          ),
        );
        const gone = recorder.calls.flatMap(deleted);
        const decks = gone.filter((k) => k.startsWith(`USER#${leaving.user_id} DECK#`)).length;
        const likes = gone.filter((k) => k.startsWith(`LIKED#${leaving.user_id} `)).length;
        const records = gone.filter((k) => k.startsWith(`IDEMP#${leaving.user_id} `)).length;
        perStep.push([decks, likes, records]);
        expect(decks, `step ${outcomes.length}`).toBeLessThanOrEqual(STEP_LIMITS.decks);
        expect(likes, `step ${outcomes.length}`).toBeLessThanOrEqual(STEP_LIMITS.likes);
        expect(records, `step ${outcomes.length}`).toBeLessThanOrEqual(STEP_LIMITS.records);
      }
    } finally {
      recorder.stop();
    }
    expect(outcomes).toEqual(['swept', 'swept', 'swept', 'closed', 'ended']);
    // Decks, likes given and records deleted by each step: everything, a step's bound at a time.
    expect(perStep).toEqual([
      [25, 100, 100],
      [25, 30, 30],
      [10, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);

    // The liked decks' counters went down (the fold into each deck is the store-change worker's).
    for (const d of liked) expect((await getCounts(d.share_slug, true)).likes).toBe(0);
    // Left of it: only its decks' versions (the store-change worker purges them on each deck's delete).
    const left = [...(await scanAll(DECKS)), ...(await scanAll(ACCOUNTS))]
      .filter((item) => JSON.stringify(item).includes(leaving.user_id))
      .map((item) => String(item.pk));
    expect(left.length).toBe(60);
    expect(left.every((pk) => pk.startsWith(`VERSION#${leaving.user_id}#`))).toBe(true);
  }, 120_000);

  it("an account's step that keeps failing names its own record; the other accounts' steps of the batch are done", async () => {
    const stuck = await createAccount('Stuck');
    const going = await createAccount('Going');
    for (const [i, account] of [stuck, going].entries()) {
      for (let d = 0; d < 2; d++) expect(await createDeck(deckOf(account.user_id, account.display_name, 10 * i + d))).toBe('ok');
      await requestErasure(account.user_id, () => countDecks(account.user_id));
    }
    // The batch as the erasure item's stream gives it (keys only): the stuck account's record first.
    const event = {
      Records: [stuck, going].map((account, i) => ({
        eventName: 'MODIFY' as const,
        dynamodb: { Keys: { pk: { S: erasureKey(account.user_id).pk }, sk: { S: 'ERASE' } }, SequenceNumber: String(100 + i) },
      })),
    };
    const context = lambdaContext({ name: 'accountErasure', timeoutSeconds: 60 });
    // Every read of the stuck account's decks fails (DynamoDB's 500), as long as the fault stays.
    store.proxy.set('Query', { ...THROTTLING.internal, match: `USER#${stuck.user_id}` });
    try {
      expect(await asWorker(() => handleErasures(event, context))).toEqual({ batchItemFailures: [{ itemIdentifier: '100' }] });
    } finally {
      store.proxy.set('Query');
    }
    // The other account's step ran all the same: its decks are gone; the stuck one's are there.
    expect([await countDecks(going.user_id), await countDecks(stuck.user_id)]).toEqual([0, 2]);
    // Retried from the named record once the fault clears: both steps done (each is idempotent).
    expect(await asWorker(() => handleErasures(event, context))).toEqual({ batchItemFailures: [] });
    expect(await countDecks(stuck.user_id)).toBe(0);
  }, 60_000);
});
