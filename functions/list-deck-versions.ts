import { listOwnerVersions } from '#decks/list-versions.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(listOwnerVersions);
