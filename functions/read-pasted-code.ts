import { publicHandler } from '#http/stack.ts';
import { readPastedCode } from '#public/pasted-code.ts';

export const handler = publicHandler(readPastedCode);
