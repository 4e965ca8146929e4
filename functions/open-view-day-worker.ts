import { openViewDay } from '#workers/open-day.ts';

export const handler = openViewDay;
