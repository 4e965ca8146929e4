/** Likes: an account likes a public or unlisted deck, once (contract §4). */
import { liking } from './grants.ts';
import { ShareSlug, UserId } from './params.ts';
import { type Declared, query, routes } from './route.ts';

const LIKES = '/api/v1/users/{user_id}/likes/{share_slug}';
const params = { user_id: UserId, share_slug: ShareSlug } as const;

export const LIKE_ROUTES = routes({
  likeDeck: {
    method: 'PUT',
    path: LIKES,
    scope: 'decks:write',
    params,
    grants: [query('by_share_slug'), ...liking('PutItem')],
    summary: 'Like a public or unlisted deck',
    description: 'Once per account; a repeat changes nothing.',
    tag: 'Likes',
    success: { status: 200, data: 'LikeResult' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  unlikeDeck: {
    method: 'DELETE',
    path: LIKES,
    scope: 'decks:write',
    params,
    grants: [query('by_share_slug'), ...liking('DeleteItem')],
    summary: 'Take a like back',
    description: 'A repeat changes nothing.',
    tag: 'Likes',
    success: { status: 200, data: 'LikeResult' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
});
