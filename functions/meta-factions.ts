import { route } from '#http/route.ts';
import { readMetaFactions } from '#public/meta-factions.ts';

export const handler = route(readMetaFactions);
