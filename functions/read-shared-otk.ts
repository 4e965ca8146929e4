import { route } from '#http/stack.ts';
import { readSharedOtk } from '#public/shared-otk.ts';

export const handler = route(readSharedOtk);
