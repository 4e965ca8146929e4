import { refreshOnSchedule } from '#workers/catalogue-refresh.ts';

export const handler = refreshOnSchedule;
