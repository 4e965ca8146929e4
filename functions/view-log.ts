import { handleChanges } from '#changes/worker.ts';

export const handler = handleChanges;
