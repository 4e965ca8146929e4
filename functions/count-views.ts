import { countViews } from '#changes/count-views.ts';

export const handler = countViews;
