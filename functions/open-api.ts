import { route } from '#http/stack.ts';
import { readOpenApi } from '#public/openapi.ts';

export const handler = route(readOpenApi);
