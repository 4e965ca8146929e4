import { route } from '#http/route.ts';
import { notFound } from '#public/not-found.ts';

export const handler = route(notFound);
