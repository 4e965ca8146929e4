import { listOwnerVersions } from '#decks/list-versions.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(listOwnerVersions);
