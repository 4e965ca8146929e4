/**
 * A like (decks table), kept twice in one transaction (likes.ts): under the deck, so that a deleted
 * deck's likes can be found and purged with it, and under the account, so that an account's likes can
 * be listed and given back (export, erasure).
 *   like:   pk LIKE#<share_slug>  sk <user_id>     { created_at }
 *   liked:  pk LIKED#<user_id>    sk <share_slug>  { created_at }
 */
import { itemKind } from './kind.ts';
export const LIKE = itemKind('LIKE#');
export const LIKED = itemKind('LIKED#');
export const likeKey = (slug: string, userId: string) => ({ pk: LIKE.pk(slug), sk: userId });
export const likedKey = (userId: string, slug: string) => ({ pk: LIKED.pk(userId), sk: slug });
