import { route } from '#http/stack.ts';
import { readMetaFactions } from '#public/meta-factions.ts';

export const handler = route(readMetaFactions);
