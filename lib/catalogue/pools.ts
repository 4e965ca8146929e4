/**
 * The card pool of a date (contract §13.4, an event's): the catalogue version in force at an instant. Apart from
 * load.ts so that only the function that needs a past pool (an event's submission) carries its reads, which wait and
 * retry as a request's store calls do (store/needed.ts): every other catalogue function reads the pointer at a glance.
 */
import { type Catalogue, parseCatalogue } from '#rules/catalogue.ts';
import { readCatalogueAt, readCatalogueText } from '#store/catalogue-read.ts';
import type { CatalogueNow } from '#store/items/catalogue.ts';
import { needed } from '#store/needed.ts';
import { catalogue, catalogueTag, checkMs } from './load.ts';

/** The versions of past pools this container has read, by version (few: an event's pool is one). */
const pools = new Map<string, Catalogue>();
const POOLS_KEPT = 4;
/** Which version was in force at an instant, as last read, and until when that answer holds. */
const inForce = new Map<string, { then: CatalogueNow | undefined; until: number }>();

/** The version in force at an instant: read again after CATALOGUE_CHECK_SECONDS unless the instant is past (then it never changes). */
async function versionAt(instant: Date): Promise<CatalogueNow | undefined> {
  const key = instant.toISOString();
  const known = inForce.get(key);
  if (known && Date.now() < known.until) return known.then;
  const then = await readCatalogueAt(instant, needed);
  // A version is published at the time it is published: what was in force at a past instant stays so (once one is kept:
  // before any, the first one published will be).
  const until = then && instant.getTime() < Date.now() - checkMs() ? Number.POSITIVE_INFINITY : Date.now() + checkMs();
  if (inForce.size >= 64) inForce.clear();
  inForce.set(key, { then, until });
  return then;
}

async function poolOf(then: CatalogueNow): Promise<Catalogue> {
  const kept = pools.get(then.version);
  if (kept) return kept;
  const read = parseCatalogue(JSON.parse(await readCatalogueText(then, needed)));
  if (pools.size >= POOLS_KEPT) pools.delete(pools.keys().next().value as string);
  pools.set(then.version, read);
  return read;
}

/**
 * The catalogue in force at an instant (contract §13.4, an event's card pool): the version published last at or before
 * it (readCatalogueAt), each read once per container; the one at hand when that is it, or when none was ever published.
 * Which version that is, is read again each CATALOGUE_CHECK_SECONDS for an instant to come, never for one past.
 */
export async function catalogueAt(instant: Date): Promise<Catalogue> {
  const then = await versionAt(instant);
  if (!then || then.version === catalogueTag()) return catalogue();
  return poolOf(then);
}
