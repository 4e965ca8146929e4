/** The bot block of clients/typescript/README.md, its import of the package pointed at the package's source. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './shared.ts';

export const CLIENT_PACKAGE = join(PROJECT_ROOT, 'clients/typescript');

/** The README's ```ts block, importing `../src/index.ts` (for a file written one folder inside the package). */
export function readmeBot(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(CLIENT_PACKAGE, 'README.md'), 'utf8'))?.[1];
  if (!block?.includes("} from '@deck-library/client'"))
    throw new Error('clients/typescript/README.md has no bot block importing the package');
  return block.replace("from '@deck-library/client'", "from '../src/index.ts'");
}
