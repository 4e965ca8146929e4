/** The local grants guard: a route's store calls are held to its grants, as IAM holds the function. */
import { describe, expect, it } from 'vitest';
import { routeByName } from '#routes';
import { getKey } from '#store/accounts.ts';
import { deckBySlug, getDeck } from '#store/decks.ts';
import { getCounts } from '#store/folds.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { allowed, asRoute, installGrantsGuard } from '../../infra/local/grants-guard.ts';

installGrantsGuard();
const denied = { name: 'AccessDeniedException' };
const id = '00000000-0000-4000-8000-000000000000';

describe('grants guard', () => {
  it('allows what a route is granted', async () => {
    await expect(asRoute(routeByName('readDeck'), () => getDeck(id, id))).resolves.toBeUndefined();
    await expect(asRoute(routeByName('readDeck'), () => getKey('k'))).resolves.toBeUndefined();
    await expect(asRoute(routeByName('readSharedDeck'), () => deckBySlug('AAAAAAAAAAAA'))).resolves.toBeUndefined();
  });

  it('refuses what it is not: the public read touching keys or decks by owner, search reading a deck', async () => {
    await expect(asRoute(routeByName('readSharedDeck'), () => getKey('k'))).rejects.toMatchObject(denied);
    await expect(asRoute(routeByName('readSharedDeck'), () => getDeck(id, id))).rejects.toMatchObject(denied);
    await expect(asRoute(routeByName('searchDecks'), () => deckBySlug('AAAAAAAAAAAA'))).rejects.toMatchObject(denied);
    await expect(asRoute(routeByName('listCards'), () => getCounts('AAAAAAAAAAAA'))).rejects.toMatchObject(denied);
  });

  it('a like may put a like’s two items and never delete them; an unlike the other way round (issue: grants broader than use)', () => {
    const table = tableName(DECKS);
    for (const pk of ['LIKE#AAAAAAAAAAAA', 'LIKED#u']) {
      expect([pk, allowed(routeByName('likeDeck'), { action: 'PutItem', table, pk })]).toEqual([pk, true]);
      expect([pk, allowed(routeByName('likeDeck'), { action: 'DeleteItem', table, pk })]).toEqual([pk, false]);
      expect([pk, allowed(routeByName('unlikeDeck'), { action: 'DeleteItem', table, pk })]).toEqual([pk, true]);
      expect([pk, allowed(routeByName('unlikeDeck'), { action: 'PutItem', table, pk })]).toEqual([pk, false]);
    }
  });

  it('outside any route (deckctl, seeding) nothing is checked', async () => {
    await expect(getKey('k')).resolves.toBeUndefined();
  });
});
