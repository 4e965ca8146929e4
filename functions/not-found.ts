import { ApiError } from '#http/errors.ts';
import { route } from '#http/route.ts';
import { endpoint } from '#http/types.ts';

export const handler = route(
  endpoint('notFound', {}, async () => {
    throw new ApiError(404, 'not_found', 'no such route');
  }),
);
