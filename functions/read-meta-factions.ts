import { publicHandler } from '#http/stack.ts';
import { readMetaFactions } from '#public/meta-factions.ts';

export const handler = publicHandler(readMetaFactions);
