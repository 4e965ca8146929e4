import { publicHandler } from '#http/stack.ts';
import { notFound } from '#public/not-found.ts';

export const handler = publicHandler(notFound);
