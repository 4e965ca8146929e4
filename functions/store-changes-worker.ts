import { handleStoreChanges } from '#workers/store-changes.ts';

export const handler = handleStoreChanges;
