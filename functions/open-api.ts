import { publicHandler } from '#http/stack.ts';
import { readOpenApi } from '#public/openapi.ts';

export const handler = publicHandler(readOpenApi);
