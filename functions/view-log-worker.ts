import { handleViewLog } from '#workers/view-log.ts';

export const handler = handleViewLog;
