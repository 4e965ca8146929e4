/**
 * The service's catalogue (contract §7): CATALOGUE_FILE when set (either card format), else the demo
 * catalogue the project ships beside this module. A file, not an import: a Lambda bundle carries no
 * catalogue in its code, and the CDK stack copies the chosen file only into the functions that need
 * it. Loaded once per process; a bad file fails loudly.
 * Kept current (contract §11.5): with CATALOGUE_PUBLISHED=on (the CDK stack sets it on every function that uses
 * the catalogue; `npm start` leaves it off and keeps CATALOGUE_FILE), before a request (`catalogue.current`, run by
 * the shared stack for an endpoint that prepares the catalogue: lib/http/stack.ts) the function asks the store
 * which version the daily refresh published (lib/workers/catalogue-refresh.ts) — at most once every
 * CATALOGUE_CHECK_SECONDS (60: "within minutes"), one GetItem of a small item, half a read unit — and, when it
 * is another than the one at hand, reads it once: from then on it is `catalogue()`, and its version
 * `catalogueTag()`, whatever the file. A store that cannot be read leaves the catalogue at hand in use: the
 * request is answered, the failure logged, and the next check is the next interval's. A version that is read but
 * is not a catalogue (its parts another text, or a text the rules refuse) is refused once and not read again while
 * the pointer names it: only the pointer's GetItem is paid each interval until a good version is published.
 */
import { readFileSync } from 'node:fs';
import { logger } from '#logger';
import { type Catalogue, parseCatalogue } from '#rules/catalogue.ts';
import { BrokenCatalogue, glance, readCatalogueNow, readCatalogueText, versionOf } from '#store/catalogue-read.ts';
import type { CatalogueNow } from '#store/items/catalogue.ts';

export const DEMO_CATALOGUE_FILE = new URL('./demo-cards.json', import.meta.url);

let cached: { file: string | URL; catalogue: Catalogue; tag: string } | undefined;
let published: { catalogue: Catalogue; tag: string } | undefined;

export function loadCatalogueFile(file: string | URL): Catalogue {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}

export const demoCatalogue = (): Catalogue => loadCatalogueFile(DEMO_CATALOGUE_FILE);

const loaded = (asked?: string | URL) => {
  if (asked === undefined && published) return published;
  const file = asked ?? (process.env.CATALOGUE_FILE || DEMO_CATALOGUE_FILE);
  // Same file as last time (the common case: the very same value) costs no string conversion.
  if (!cached || (cached.file !== file && String(cached.file) !== String(file))) {
    const text = readFileSync(file, 'utf8');
    cached = { file, catalogue: parseCatalogue(JSON.parse(text)), tag: versionOf(text) };
  }
  return cached;
};

/**
 * What names the catalogue the service runs with (a hash of its text: the published version's, else its file's):
 * in the validators of what is drawn from it and in the image URLs the service prints.
 */
export const catalogueTag = (file?: string | URL): string => loaded(file).tag;

/** From now on, the catalogue of this text (a published version: its version is the hash of its text). */
function usePublished(text: string): void {
  published = { catalogue: parseCatalogue(JSON.parse(text)), tag: versionOf(text) };
}

const DEFAULT_CHECK_SECONDS = 60;
let checkedAt = Number.NEGATIVE_INFINITY;
let checking: Promise<void> | undefined;

export const checkMs = (): number => {
  const seconds = Number(process.env.CATALOGUE_CHECK_SECONDS);
  return (Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_CHECK_SECONDS) * 1000;
};

/** The published version this container found broken (never read again while the pointer names it). */
let refused: string | undefined;

async function check(): Promise<void> {
  let now: CatalogueNow | undefined;
  try {
    now = await readCatalogueNow(glance);
    if (!now || now.version === catalogueTag() || now.version === refused) return;
    const text = await readCatalogueText(now, glance);
    try {
      usePublished(text);
    } catch (e) {
      throw new BrokenCatalogue(`catalogue ${now.version}: ${(e as Error).message}`);
    }
    logger.info('catalogue: the published version is in use', { version: now.version, cards: now.cards, published_at: now.published_at });
  } catch (e) {
    if (e instanceof BrokenCatalogue) refused = now?.version;
    const what = e instanceof BrokenCatalogue ? 'is broken; refused until another is published' : 'could not be read';
    logger.warn(`catalogue: the published version ${what}; the one at hand stays`, { version: now?.version, error: (e as Error).message });
  }
}

/** Brings the catalogue to the published version, when one is published and the interval has passed. Never throws. */
async function keepCatalogueCurrent(): Promise<void> {
  if (process.env.CATALOGUE_PUBLISHED !== 'on') return;
  if (!checking && Date.now() - checkedAt < checkMs()) return;
  checking ??= check().finally(() => {
    checkedAt = Date.now();
    checking = undefined;
  });
  await checking;
}

/** The service's catalogue (a file's, or the published one); `current` brings it to the published version first. */
export const catalogue = Object.assign((file?: string | URL): Catalogue => loaded(file).catalogue, { current: keepCatalogueCurrent });
