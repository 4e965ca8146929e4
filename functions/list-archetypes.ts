import { publicHandler } from '#http/stack.ts';
import { listArchetypes } from '#public/archetypes.ts';

export const handler = publicHandler(listArchetypes);
