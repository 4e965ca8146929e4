/** Public decks: a public or unlisted deck read by its share slug, without a key (contract §4). */
import { viewing } from './grants.ts';
import { ShareSlug } from './params.ts';
import { type Declared, query, routes } from './route.ts';

export const PUBLIC_ROUTES = routes({
  readSharedDeck: {
    method: 'GET',
    path: '/api/v1/decks/{share_slug}',
    params: { share_slug: ShareSlug },
    catalogue: true,
    grants: [query('by_share_slug'), ...viewing],
    summary: 'Read a public or unlisted deck by its share slug',
    description: 'Counts one view. A private or unknown slug is 404 deck_not_found.',
    tag: 'Public decks',
    success: { status: 200, data: 'PublicDeck', headers: ['Cache-Control'] },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  readSharedOtk: {
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/otk',
    params: { share_slug: ShareSlug },
    grants: [query('by_share_slug')],
    summary: 'The OTK chart of a public or unlisted deck',
    description: 'As for the owner, for a public or unlisted deck by its share slug. Counts no view.',
    tag: 'Public decks',
    success: { status: 200, data: 'OtkChart' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
});
