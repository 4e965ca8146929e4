/** The orders of public search (requirement §4): newest first, most viewed, most liked. */
export const SORTS = ['date', 'views', 'likes'] as const;
export type Sort = (typeof SORTS)[number];
