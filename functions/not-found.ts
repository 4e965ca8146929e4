import { ApiError } from '#http/errors.ts';
import { route } from '#http/route.ts';

export const handler = route('notFound', async () => {
  throw new ApiError(404, 'not_found', 'no such route');
});
