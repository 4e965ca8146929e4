import { handleErasures } from '#account/erasure.ts';

export const handler = handleErasures;
