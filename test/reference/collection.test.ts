/**
 * A player's own cards against the real KARDS data of ../shared (contract §12.3), pure: each real share code's
 * formats derived here from the raw catalogue's rarities and nations and the code's recorded copies (not through the
 * service's catalogue); a collection read from real decks' text exports in every language equals their cards summed;
 * a deck's missing cards recounted by hand; and the collection item's size with every real card owned.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changedCollection, missingOf, type Owned, readCollectionBody, readCollectionText } from '#rules/collection.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { writeDeckText } from '#rules/deck-text.ts';
import { FACTION_BY_NATION } from '#rules/factions.ts';
import { legality } from '#rules/insight.ts';
import { KARDS_LANGUAGES } from '#rules/kards-graphql.ts';
import { LIMITS } from '#rules/limits.ts';
import { collectionKey } from '#store/items/collection.ts';
import { itemSize } from '../../scripts/bench/costs.ts';
import { namedRealCatalogue } from '../support/named-catalogue.ts';
import { hasRealCatalogue, hasRealCodes, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

interface RawCard {
  importId: string;
  name: string;
  nation: string;
  rarity: string;
  exile: string | null;
}

const share = realCodes().filter((c) => c.format === 'share');
const nationOf = (n: string) => FACTION_BY_NATION[n] ?? n.toLowerCase();

describe.skipIf(!hasRealCatalogue || !hasRealCodes)('a player’s own cards, with the real catalogue and codes of ../shared', () => {
  const raw = new Map((JSON.parse(readFileSync(REAL_CATALOGUE_FILE, 'utf8')) as RawCard[]).map((c) => [c.importId, c]));
  const { catalogue } = namedRealCatalogue();

  it('holds the 25 real share codes', () => {
    expect(share.length).toBe(25);
  });

  it.each(share.map((c) => [c.key, c] as const))('%s: each format as the raw cards say (rarities, copies, nations)', (_key, real) => {
    const deck = parseDeckCode(real.code);
    const found = legality(deck, catalogue);
    const main = nationOf(real.main);
    const ally = nationOf(real.ally);
    // Most real decks hold cards newer than the May 2026 catalogue: of those, only the copies are known.
    const cards = real.cards.map((c) => ({ ...c, card: raw.get(c.code) }));
    // Derived from the raw catalogue: pauper refuses Special and Elite; singleton a second copy; monodeck the ally's
    // cards, and an exile serving the ally (a card of neither nation whose exile is the ally's).
    const pauper = cards.filter((c) => c.card && ['Special', 'Elite'].includes(c.card.rarity)).map((c) => c.code);
    const singleton = cards.filter((c) => c.copies > 1).map((c) => c.code);
    const monodeck = cards
      .filter((c) => {
        if (!c.card) return false;
        const nation = nationOf(c.card.nation);
        if (nation === ally) return true;
        return nation !== main && nation !== 'neutral' && c.card.exile !== null && nationOf(c.card.exile) === ally;
      })
      .map((c) => c.code);
    const sorted = (ids: string[]) => [...ids].sort();
    expect(sorted(found.formats.pauper.issues.map((i) => i.card_id))).toEqual(sorted(pauper));
    expect(sorted(found.formats.singleton.issues.map((i) => i.card_id))).toEqual(sorted(singleton));
    expect(sorted(found.formats.monodeck.issues.map((i) => i.card_id))).toEqual(sorted(monodeck));
    for (const [format, issues] of [
      ['pauper', pauper],
      ['singleton', singleton],
      ['monodeck', monodeck],
    ] as const)
      expect(found.formats[format].legal, format).toBe(found.valid && issues.length === 0);
    // Every real deck but the empty one has a second copy of something.
    if (real.cards.length > 0) expect(singleton.length).toBeGreaterThan(0);
  });

  it('a collection read from real decks’ text exports, in each of the 12 languages, is their cards summed', () => {
    // The real decks whose every card the catalogue knows (a collection holds only cards it knows: others are 422).
    const known = share.filter((c) => c.cards.length > 0 && c.cards.every((card) => catalogue.get(card.code)));
    expect(known.length).toBeGreaterThanOrEqual(3);
    const decks = known.map((c) => parseDeckCode(c.code));
    const summed: Owned = {};
    for (const d of decks) for (const { card_id, count } of d.cards) summed[card_id] = (summed[card_id] ?? 0) + count;
    for (const language of KARDS_LANGUAGES) {
      const text = decks.map((d) => writeDeckText(d, catalogue, language)).join('\n\n');
      expect(readCollectionText(text, catalogue), language).toEqual(summed);
      // Bare `Nx NAME` lines (the kredits dropped), under the nations' headers.
      const bare = text
        .split('\n')
        .filter((l) => !l.startsWith('%%'))
        .map((l) => l.replace(/^(\d+x) \(\d+K\) /, '$1 '))
        .join('\n');
      expect(readCollectionText(bare, catalogue), `${language}, bare lines`).toEqual(summed);
    }
    const json = readCollectionBody({ cards: summed }, catalogue);
    expect(json).toEqual({ ok: true, value: summed });
  });

  it.each(share.map((c) => [c.key, c] as const))('%s: what it still needs of a collection, recounted by hand', (_key, real) => {
    // A collection of the first three real decks' cards, one copy fewer of each of the first deck's.
    const owned: Owned = {};
    for (const c of share.slice(0, 3)) for (const card of c.cards) owned[card.code] = (owned[card.code] ?? 0) + card.copies;
    for (const card of (share[0] as (typeof share)[number]).cards) owned[card.code] = (owned[card.code] as number) - 1 || 0;
    for (const [id, n] of Object.entries(owned)) if (n === 0) delete owned[id];
    const found = missingOf(parseDeckCode(real.code), owned, catalogue);
    const expected = real.cards.map((c) => ({ card_id: c.code, count: c.copies - (owned[c.code] ?? 0) })).filter((c) => c.count > 0);
    expect(new Map(found.cards.map((c) => [c.card_id, c.count]))).toEqual(new Map(expected.map((c) => [c.card_id, c.count])));
    const byRarity: Record<string, number> = { standard: 0, limited: 0, special: 0, elite: 0 };
    const byNation: Record<string, number> = {};
    for (const c of expected) {
      // A card the catalogue does not know counts in no rarity or nation (its copies are in the total).
      const card = raw.get(c.card_id);
      if (!card) continue;
      byRarity[card.rarity.toLowerCase()] = (byRarity[card.rarity.toLowerCase()] ?? 0) + c.count;
      const nation = nationOf(card.nation);
      byNation[nation] = (byNation[nation] ?? 0) + c.count;
    }
    expect(found.by_rarity).toEqual(byRarity);
    expect(found.by_nation).toEqual(byNation);
    expect(found.total).toBe(expected.reduce((n, c) => n + c.count, 0));
    expect(found.buildable).toBe(expected.length === 0);
  });

  it('a deck the collection holds exactly is buildable; one copy fewer is missing 1', () => {
    const deck = parseDeckCode((share[4] as (typeof share)[number]).code);
    const exact = Object.fromEntries(deck.cards.map((c) => [c.card_id, c.count]));
    expect(missingOf(deck, exact, catalogue)).toMatchObject({ buildable: true, total: 0, cards: [] });
    const first = deck.cards[0] as { card_id: string; count: number };
    const fewer = changedCollection(exact, { add: {}, remove: { [first.card_id]: 1 } });
    expect(fewer.ok).toBe(true);
    const missing = missingOf(deck, fewer.ok ? fewer.value : {}, catalogue);
    expect(missing).toMatchObject({ buildable: false, total: 1, cards: [{ card_id: first.card_id, count: 1 }] });
    expect(encodeDeckCode(deck)).toBe(encodeDeckCode(parseDeckCode(encodeDeckCode(deck))));
  });

  it('the collection item with every real card a deck may hold owned, at the most copies kept: its size', () => {
    const every = Object.fromEntries(
      catalogue.cards
        .filter((c) => readCollectionBody({ cards: { [c.card_id]: 1 } }, catalogue).ok)
        .map((c) => [c.card_id, LIMITS.ownedCopies]),
    );
    const item = {
      ...collectionKey('00000000-0000-4000-8000-000000000000'),
      cards: every,
      version: 1_000_000,
      updated_at: new Date().toISOString(),
      change: '00000000-0000-4000-8000-000000000000',
    };
    const bytes = itemSize(item);
    console.log(
      `collection item: ${Object.keys(every).length} cards owned, ${bytes} bytes (${Math.ceil(bytes / 4096)} read units strongly consistent)`,
    );
    // Every card of the real catalogue that may stand in a deck, bounded well under DynamoDB's 400 KB item.
    expect(Object.keys(every).length).toBeGreaterThan(1_000);
    expect(bytes).toBeLessThan(16 * 1024);
  });
});
