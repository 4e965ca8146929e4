import { route } from '#http/route.ts';
import { readOpenApi } from '#public/openapi.ts';

export const handler = route(readOpenApi);
