/**
 * The rules through HTTP: create, validate and PATCH answer 422 validation_failed with the rule's
 * path and code; validate's 422 is create's; PATCH with a new deck code re-judges guide and archive.
 */
import { describe, expect, it } from 'vitest';
import { type CardCount, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { call, code, createDeck, deckable, demo, details, newOwner } from '../support/api.ts';

const base = code();
const cards = parseDeckCode(base).cards;
const inDeck = cards.map((c) => c.card_id);
const [s0, s1, s2] = inDeck.filter((id) => demo.get(id)?.faction === 'soviet') as [string, string, string];
const sovietOut = deckable('soviet').find((c) => !inDeck.includes(c.card_id))?.card_id as string;
const usaOut = deckable('usa').find((c) => !inDeck.includes(c.card_id))?.card_id as string;
const german = deckable('germany')[0]?.card_id as string;
const derived = demo.cards.find((c) => c.derived && c.faction === 'soviet' && c.card_id.length === 2)?.card_id as string;
const hq = demo.cards.find((c) => c.type === 'headquarters' && c.faction === 'soviet')?.card_id as string;
const elite = deckable('soviet').find((c) => c.rarity === 'elite')?.card_id as string;

/** The base deck with one copy of the first soviet card (4 copies) swapped for `id` × n. */
const swapped = (id: string, n = 1): string => {
  const out: CardCount[] = cards.map((c) => (c.card_id === s0 ? { ...c, count: c.count - n } : c)).filter((c) => c.count > 0);
  return encodeDeckCode({ main: 'soviet', ally: 'usa', cards: [...out, { card_id: id, count: n }] });
};
const short = encodeDeckCode({ main: 'soviet', ally: 'usa', cards: cards.map((c) => (c.card_id === s0 ? { ...c, count: 3 } : c)) });
const usaIn = inDeck.find((id) => demo.get(id)?.faction === 'usa') as string;

type Case = [string, Record<string, unknown>, [string, string][]];
const ok = { deck_code: base, guide: { system: 'Tempo' } };
const section = (items: unknown[], enabled = true) => ({ enabled, items });

/** Cases that apply to create, validate and (as a patch of the same fields) PATCH. */
const cases: Case[] = [
  ['guide.system too long', { guide: { system: 'x'.repeat(41) } }, [['guide.system', 'too_long']]],
  ['guide.system missing', { guide: { description: 'd' } }, [['guide.system', 'required']]],
  ['malformed code', { deck_code: '%%45|abc' }, [['deck_code', 'invalid_deck_code']]],
  ['38 cards', { deck_code: short }, [['deck_code', 'deck_size']]],
  ['unknown card', { deck_code: swapped('zz') }, [['deck_code', 'unknown_card']]],
  ['derived card', { deck_code: swapped(derived) }, [['deck_code', 'derived_card']]],
  ['HQ card', { deck_code: swapped(hq) }, [['deck_code', 'headquarters_card']]],
  ['wrong faction', { deck_code: swapped(german) }, [['deck_code', 'wrong_faction']]],
  ['13 ally cards', { deck_code: swapped(usaOut) }, [['deck_code', 'ally_limit']]],
  ['2 elite copies', { deck_code: swapped(elite, 2) }, [['deck_code', 'copy_limit']]],
  [
    'derived field',
    { name: 'Mine', cards_snapshot: [] },
    [
      ['name', 'not_writable'],
      ['cards_snapshot', 'not_writable'],
    ],
  ],
  ['unknown field', { colour: 'red' }, [['colour', 'unknown_field']]],
  ['core card not in deck', { guide: { system: 'x', core_cards: [s1, sovietOut] } }, [['guide.core_cards[1]', 'not_in_deck']]],
  ['core card derived', { guide: { system: 'x', core_cards: [derived] } }, [['guide.core_cards[0]', 'derived_card']]],
  ['31 core cards', { guide: { system: 'x', core_cards: Array(31).fill(s1) } }, [['guide.core_cards', 'too_many']]],
  ['reserve unknown', { guide: { system: 'x', reserve_recommendations: ['zz'] } }, [['guide.reserve_recommendations[0]', 'unknown_card']]],
  ['archive null', { archive: null }, [['archive', 'null_section']]],
  ['section null', { archive: { key_components: null } }, [['archive.key_components', 'null_section']]],
  ['enabled without items', { archive: { alternatives: section([]) } }, [['archive.alternatives.items', 'items_required']]],
  [
    'blank reason',
    { archive: { key_components: section([{ card_id: s1, reason: '  ' }]) } },
    [['archive.key_components.items[0].reason', 'blank_reason']],
  ],
  [
    'key component not in deck',
    { archive: { key_components: section([{ card_id: sovietOut, reason: 'r' }]) } },
    [['archive.key_components.items[0].card_id', 'not_in_deck']],
  ],
  [
    '9 key components',
    { archive: { key_components: section(Array(9).fill({ card_id: s1, reason: 'r' })) } },
    [['archive.key_components.items', 'too_many']],
  ],
  [
    'alternative of another faction',
    { archive: { alternatives: section([{ card_id: german, reason: 'r' }]) } },
    [['archive.alternatives.items[0].card_id', 'wrong_faction']],
  ],
  [
    'alternative HQ',
    { archive: { alternatives: section([{ card_id: hq, reason: 'r' }]) } },
    [['archive.alternatives.items[0].card_id', 'headquarters_card']],
  ],
  [
    'alternative derived',
    { archive: { alternatives: section([{ card_id: derived, reason: 'r' }]) } },
    [['archive.alternatives.items[0].card_id', 'derived_card']],
  ],
  [
    'substitution original not in deck',
    { archive: { alternatives: section([{ card_id: usaOut, reason: 'r', replaces_card_id: sovietOut }]) } },
    [['archive.alternatives.items[0].replaces_card_id', 'not_in_deck']],
  ],
  [
    'otk card not in deck',
    { archive: { chart_settings: { otkConfig: { items: [{ card_ids: [sovietOut], required: 1 }] } } } },
    [['archive.chart_settings.otkConfig.items[0].card_ids[0]', 'not_in_deck']],
  ],
  [
    'otk required above copies',
    { archive: { chart_settings: { otkConfig: { items: [{ card_ids: [s1], required: 5 }] } } } },
    [['archive.chart_settings.otkConfig.items[0].required', 'invalid_value']],
  ],
  ['featured card not in deck', { featured_card_id: sovietOut }, [['featured_card_id', 'not_in_deck']]],
  ['card back malformed', { card_back_id: 'a b' }, [['card_back_id', 'invalid_value']]],
  ['visibility unknown', { visibility: 'secret' }, [['visibility', 'invalid_value']]],
  ['11 tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, [['tags', 'too_many']]],
  ['sort_order not an integer', { sort_order: 'first' }, [['sort_order', 'invalid_type']]],
];

describe('create and validate', async () => {
  const owner = await newOwner();

  it.each(cases)('%s', async (_name, fields, expected) => {
    const body = { ...ok, ...fields };
    const created = await call('POST', owner.decks, { key: owner.key, body });
    expect(created.status).toBe(422);
    expect(created.body.error.code).toBe('validation_failed');
    expect(details(created)).toEqual(expected);
    const validated = await call('POST', `${owner.decks}/validate`, { key: owner.key, body });
    expect(validated.status).toBe(422);
    expect(validated.body.error).toEqual(created.body.error);
  });

  it('missing deck_code and guide on create', async () => {
    const r = await call('POST', owner.decks, { key: owner.key, body: {} });
    expect(details(r)).toEqual([
      ['deck_code', 'required'],
      ['guide', 'required'],
    ]);
  });

  it('every failure at once, and nothing stored', async () => {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: short, guide: { system: 'x'.repeat(41) }, id: 'mine', featured_card_id: sovietOut },
    });
    expect(details(r)).toEqual(
      expect.arrayContaining([
        ['id', 'not_writable'],
        ['guide.system', 'too_long'],
        ['deck_code', 'deck_size'],
        ['featured_card_id', 'not_in_deck'],
      ]),
    );
    expect((await call('GET', owner.decks, { key: owner.key })).body.data).toEqual([]);
  });

  it('the same rules pass when they hold', async () => {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: {
        ...ok,
        guide: { system: 'x'.repeat(40), core_cards: [s1, s2], reserve_recommendations: [german] },
        archive: {
          key_components: section([{ card_id: s1, reason: 'finisher' }]),
          alternatives: section([{ card_id: usaOut, reason: 'cheaper', replaces_card_id: usaIn }]),
          chart_settings: { otkConfig: { items: [{ card_ids: [s1, s2], required: 8, label: 'both' }] } },
        },
        featured_card_id: s2,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data.archive.alternatives.items).toEqual([{ card_id: usaOut, reason: 'cheaper', replaces_card_id: usaIn }]);
  });
});

describe('patch', async () => {
  const owner = await newOwner();

  it.each(cases)('%s', async (_name, fields, expected) => {
    const { id, version } = (await createDeck(owner)).body.data;
    const r = await call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: fields });
    expect(r.status).toBe(422);
    expect(details(r)).toEqual(expected);
    expect((await call('GET', `${owner.decks}/${id}`, { key: owner.key })).body.data.version).toBe(version);
  });

  it('an empty patch is 422 empty_patch', async () => {
    const { id } = (await createDeck(owner)).body.data;
    expect(details(await call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: {} }))).toEqual([['', 'empty_patch']]);
  });

  describe('a new deck code', async () => {
    const full = {
      guide: { system: 'Tempo', core_cards: [s1] },
      archive: {
        key_components: section([{ card_id: s1, reason: 'r' }]),
        alternatives: section([{ card_id: usaOut, reason: 'r', replaces_card_id: s2 }]),
        chart_settings: { otkConfig: { items: [{ card_ids: [s0], required: 1 }] } },
      },
    };
    const without = (id: string) =>
      encodeDeckCode({
        main: 'soviet',
        ally: 'usa',
        cards: [...cards.filter((c) => c.card_id !== id), { card_id: sovietOut, count: cards.find((c) => c.card_id === id)?.count ?? 0 }],
      });
    const patch = async (body: Record<string, unknown>) => {
      const { id } = (await createDeck(owner, full)).body.data;
      return call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body });
    };

    it('keeping the guide usable is accepted', async () => {
      const r = await patch({ deck_code: without(inDeck.find((x) => ![s0, s1, s2].includes(x)) as string) });
      expect(r.status).toBe(200);
      expect(r.body.data.guide).toEqual({ ...full.guide, description: '', reserve_recommendations: [] });
    });

    it('dropping a core card is guide_required (and the key component on its path); a new guide and archive fix it', async () => {
      const r = await patch({ deck_code: without(s1) });
      expect(details(r)).toEqual([
        ['guide', 'guide_required'],
        ['archive.key_components.items[0].card_id', 'not_in_deck'],
      ]);
      const fixed = await patch({ deck_code: without(s1), guide: { system: 'New' }, archive: { key_components: section([], false) } });
      expect(fixed.status).toBe(200);
    });

    it('a substitution original or chart card that leaves the deck is named on its path', async () => {
      expect(details(await patch({ deck_code: without(s2) }))).toEqual([['archive.alternatives.items[0].replaces_card_id', 'not_in_deck']]);
      expect(details(await patch({ deck_code: without(s0) }))).toEqual([
        ['archive.chart_settings.otkConfig.items[0].card_ids[0]', 'not_in_deck'],
      ]);
    });

    it('alternatives outside the new factions are errors until a corrected archive comes with the code', async () => {
      const germanItaly = code('germany', 'italy');
      expect(details(await patch({ deck_code: germanItaly, guide: { system: 'G' } }))).toEqual([
        ['archive.key_components.items[0].card_id', 'not_in_deck'],
        ['archive.alternatives.items[0].card_id', 'wrong_faction'],
        ['archive.alternatives.items[0].replaces_card_id', 'not_in_deck'],
        ['archive.chart_settings.otkConfig.items[0].card_ids[0]', 'not_in_deck'],
      ]);
      const empty = { key_components: section([], false), alternatives: section([], false), chart_settings: { otkConfig: { items: [] } } };
      expect((await patch({ deck_code: germanItaly, guide: { system: 'G' }, archive: empty })).status).toBe(200);
    });
  });
});
