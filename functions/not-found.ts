import { ApiError } from '#http/errors.ts';
import { route } from '#http/route.ts';
import { publicEndpoint } from '#http/types.ts';

export const handler = route(
  'notFound',
  publicEndpoint({}, async () => {
    throw new ApiError(404, 'not_found', 'no such route');
  }),
);
