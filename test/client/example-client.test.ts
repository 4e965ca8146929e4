/** The typed example client (example-client.ts) compiles in `npm test` and also runs: against the run's API. */
import { describe, expect, it } from 'vitest';
import { baseUrl, code, newOwner } from '../support/api.ts';
import { tourOfTheApi } from './example-client.ts';

describe('a client generated from the document', () => {
  it('creates, patches with If-Match (a stale one is 412), reads, searches with a cursor and reads a shared deck', async () => {
    const owner = await newOwner(undefined, 'Typed Client');
    const tag = `typed${Date.now()}`;
    const second = await newOwner();
    // Two public decks with the tag, so that the search has a next page.
    await tourOfTheApi(baseUrl(), second.userId, second.key, code('soviet', 'usa', 1), tag);
    const tour = await tourOfTheApi(baseUrl(), owner.userId, owner.key, code(), tag);
    expect(tour).toMatchObject({ version: 2, staleCode: 'precondition_failed', sortOrder: 3, cursor: expect.any(String), more: false });
    expect(tour.slug).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(tour.author).toBe('Typed Client');
  });
});
