import { handleErasures } from '#workers/erasure.ts';

export const handler = handleErasures;
