import { publicHandler } from '#http/stack.ts';
import { readArchetype } from '#public/archetypes.ts';

export const handler = publicHandler(readArchetype);
