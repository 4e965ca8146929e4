import { route } from '#http/route.ts';
import { readSharedOtk } from '#public/shared-otk.ts';

export const handler = route(readSharedOtk);
