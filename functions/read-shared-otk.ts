import { publicHandler } from '#http/stack.ts';
import { readSharedOtk } from '#public/shared-otk.ts';

export const handler = publicHandler(readSharedOtk);
