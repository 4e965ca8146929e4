import { route } from '#http/route.ts';
import { readPastedCode } from '#public/pasted-code.ts';

export const handler = route(readPastedCode);
