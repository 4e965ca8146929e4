/** The orders of public search (requirement §4): newest first, most viewed, most liked; most viewed of the week (contract §10.3). */
export const SORTS = ['date', 'views', 'likes', 'trending'] as const;
export type Sort = (typeof SORTS)[number];
