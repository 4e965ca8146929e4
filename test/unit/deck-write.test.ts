import { describe, expect, it } from 'vitest';
import type { DeckContent } from '#rules/deck-model.ts';
import { checkCreate, checkPatch } from '#rules/deck-write.ts';
import type { Detail } from '#rules/details.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { snapshotOf } from '#rules/parsed-codes.ts';
import { TINY_CODE, tiny } from '../support/decks.ts';

const base = () => ({ deck_code: TINY_CODE, guide: { system: 'Tempo' } });
const create = (body: Record<string, unknown>) => checkCreate(body, tiny, undefined);
const failures = (r: ReturnType<typeof create>): Pick<Detail, 'path' | 'code'>[] =>
  r.ok ? [] : r.details.map(({ path, code }) => ({ path, code }));
const created = (body: Record<string, unknown> = base()): DeckContent => {
  const r = create(body);
  if (!r.ok) throw new Error(JSON.stringify(r.details));
  return r.content;
};
const one = (path: string, code: Detail['code']) => [{ path, code }];

describe('create: normalisation', () => {
  it('derives name, factions, canonical code and sorted snapshot, and fills defaults', () => {
    const deck = created({ ...base(), deck_code: ` ${TINY_CODE.replace('s1s2', 's2s1')} `, tags: [' Aggro ', 'aggro', 'OTK'] });
    expect(deck).toMatchObject({
      deck_code: TINY_CODE,
      name: 'Soviet Union / United States',
      main_faction: 'soviet',
      ally_faction: 'usa',
      tags: ['aggro', 'otk'],
      visibility: 'private',
      sort_order: 0,
      guide: { system: 'Tempo', description: '', core_cards: [], reserve_recommendations: [] },
      archive: {
        key_components: { enabled: false, items: [] },
        alternatives: { enabled: false, items: [] },
        chart_settings: { otkConfig: { items: [] } },
      },
      display: { featured_card_id: null, card_back_id: null },
    });
    // The snapshot is derived on read from the canonical code the write produced.
    const snapshot = snapshotOf(deck.deck_code);
    const ids = snapshot.map((c) => c.card_id);
    expect(ids).toEqual([...ids].sort());
    expect(snapshot.reduce((n, c) => n + c.count, 0)).toBe(39);
  });
});

describe('create: every rule, with its path and code', () => {
  it.each<[string, Record<string, unknown>, { path: string; code: Detail['code'] }[]]>([
    ['deck_code missing', { guide: { system: 'x' } }, one('deck_code', 'required')],
    ['guide missing', { deck_code: TINY_CODE }, one('guide', 'required')],
    ['guide.system missing', { deck_code: TINY_CODE, guide: {} }, one('guide.system', 'required')],
    ['guide.system blank', { deck_code: TINY_CODE, guide: { system: '   ' } }, one('guide.system', 'required')],
    ['guide.system 41 chars', { deck_code: TINY_CODE, guide: { system: 'x'.repeat(41) } }, one('guide.system', 'too_long')],
    [
      'guide.description over 20,000',
      { ...base(), guide: { system: 'x', description: 'd'.repeat(20_001) } },
      one('guide.description', 'too_long'),
    ],
    ['deck_code not a string', { ...base(), deck_code: 5 }, one('deck_code', 'invalid_type')],
    ['deck_code malformed', { ...base(), deck_code: '%%45|s1;' }, one('deck_code', 'invalid_deck_code')],
    ['deck_code too long', { ...base(), deck_code: `${TINY_CODE}${' '.repeat(400)}` }, one('deck_code', 'too_long')],
    ['deck_size', { ...base(), deck_code: '%%45|;;sL;s1s2s3s4s5s6u1u2' }, one('deck_code', 'deck_size')],
    ['unknown field', { ...base(), colour: 'red' }, one('colour', 'unknown_field')],
    ['nested unknown field', { ...base(), guide: { system: 'x', notes: 'n' } }, one('guide.notes', 'unknown_field')],
    ...['name', 'main_faction', 'ally_faction', 'cards_snapshot', 'id', 'share_slug', 'version', 'views', 'created_at'].map(
      (f) =>
        [`${f} is derived`, { ...base(), [f]: 'x' }, one(f, 'not_writable')] as [
          string,
          Record<string, unknown>,
          { path: string; code: Detail['code'] }[],
        ],
    ),
    // The display as the owner deck shows it (and the export gives it) is writable (contract §10.4).
    ['display not an object', { ...base(), display: 'x' }, one('display', 'invalid_type')],
    ['display unknown member', { ...base(), display: { featured_card_id: null, colour: 'red' } }, one('display.colour', 'unknown_field')],
    ['display card not in deck', { ...base(), display: { featured_card_id: 's9' } }, one('featured_card_id', 'not_in_deck')],
    [
      'display and the flat field disagree',
      { ...base(), featured_card_id: 's1', display: { featured_card_id: 's2' } },
      one('display.featured_card_id', 'invalid_value'),
    ],
    ['core card not in deck', { ...base(), guide: { system: 'x', core_cards: ['s1', 's9'] } }, one('guide.core_cards[1]', 'not_in_deck')],
    ['core card derived', { ...base(), guide: { system: 'x', core_cards: ['sd'] } }, one('guide.core_cards[0]', 'derived_card')],
    ['core card unknown', { ...base(), guide: { system: 'x', core_cards: ['zz'] } }, one('guide.core_cards[0]', 'unknown_card')],
    ['core card duplicate', { ...base(), guide: { system: 'x', core_cards: ['s1', 's1'] } }, one('guide.core_cards[1]', 'duplicate')],
    ['31 core cards', { ...base(), guide: { system: 'x', core_cards: Array(31).fill('s1') } }, one('guide.core_cards', 'too_many')],
    ['core card id malformed', { ...base(), guide: { system: 'x', core_cards: ['s 1'] } }, one('guide.core_cards[0]', 'invalid_value')],
    [
      'reserve unknown',
      { ...base(), guide: { system: 'x', reserve_recommendations: ['g1', 'zz'] } },
      one('guide.reserve_recommendations[1]', 'unknown_card'),
    ],
    [
      'reserve derived',
      { ...base(), guide: { system: 'x', reserve_recommendations: ['soviet_long_token'] } },
      one('guide.reserve_recommendations[0]', 'derived_card'),
    ],
    [
      '31 reserve',
      { ...base(), guide: { system: 'x', reserve_recommendations: Array(31).fill('g1') } },
      one('guide.reserve_recommendations', 'too_many'),
    ],
    ['archive null', { ...base(), archive: null }, one('archive', 'null_section')],
    ['section null', { ...base(), archive: { alternatives: null } }, one('archive.alternatives', 'null_section')],
    ['chart null', { ...base(), archive: { chart_settings: null } }, one('archive.chart_settings', 'null_section')],
    [
      'enabled, no items',
      { ...base(), archive: { key_components: { enabled: true, items: [] } } },
      one('archive.key_components.items', 'items_required'),
    ],
    [
      'enabled, blank reason',
      { ...base(), archive: { key_components: { enabled: true, items: [{ card_id: 's1', reason: ' \t' }] } } },
      one('archive.key_components.items[0].reason', 'blank_reason'),
    ],
    [
      'enabled, missing reason',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'u4' }] } } },
      one('archive.alternatives.items[0].reason', 'blank_reason'),
    ],
    [
      'key component not in deck',
      { ...base(), archive: { key_components: { enabled: true, items: [{ card_id: 's9', reason: 'r' }] } } },
      one('archive.key_components.items[0].card_id', 'not_in_deck'),
    ],
    [
      '9 key components',
      { ...base(), archive: { key_components: { enabled: false, items: Array(9).fill({ card_id: 's1' }) } } },
      one('archive.key_components.items', 'too_many'),
    ],
    [
      'section enabled missing',
      { ...base(), archive: { key_components: { items: [] } } },
      one('archive.key_components.enabled', 'required'),
    ],
    [
      'alternative unknown',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'zz', reason: 'r' }] } } },
      one('archive.alternatives.items[0].card_id', 'unknown_card'),
    ],
    [
      'alternative HQ',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'sh', reason: 'r' }] } } },
      one('archive.alternatives.items[0].card_id', 'headquarters_card'),
    ],
    [
      'alternative derived',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'sd', reason: 'r' }] } } },
      one('archive.alternatives.items[0].card_id', 'derived_card'),
    ],
    [
      'alternative other faction',
      { ...base(), archive: { alternatives: { enabled: false, items: [{ card_id: 'g1' }] } } },
      one('archive.alternatives.items[0].card_id', 'wrong_faction'),
    ],
    [
      'substitution original not in deck',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'u4', reason: 'r', replaces_card_id: 's9' }] } } },
      one('archive.alternatives.items[0].replaces_card_id', 'not_in_deck'),
    ],
    [
      'alternative duplicate',
      {
        ...base(),
        archive: {
          alternatives: {
            enabled: true,
            items: [
              { card_id: 'u4', reason: 'r' },
              { card_id: 'u4', reason: 'r' },
            ],
          },
        },
      },
      one('archive.alternatives.items[1].card_id', 'duplicate'),
    ],
    [
      '11 alternatives',
      { ...base(), archive: { alternatives: { enabled: false, items: Array(11).fill({ card_id: 'u4' }) } } },
      one('archive.alternatives.items', 'too_many'),
    ],
    [
      'reason over 1,000',
      { ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'u4', reason: 'r'.repeat(1001) }] } } },
      one('archive.alternatives.items[0].reason', 'too_long'),
    ],
    [
      'otk card not in deck',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1', 's9'], required: 1 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].card_ids[1]', 'not_in_deck'),
    ],
    [
      'otk no cards',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: [], required: 1 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].card_ids', 'too_few'),
    ],
    [
      'otk 40 cards',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: Array(40).fill('s1'), required: 1 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].card_ids', 'too_many'),
    ],
    [
      'otk duplicate',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1', 's1'], required: 1 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].card_ids[1]', 'duplicate'),
    ],
    [
      'otk required above copies',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1', 'sL'], required: 8 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].required', 'invalid_value'),
    ],
    [
      'otk required 0',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1'], required: 0 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].required', 'invalid_value'),
    ],
    [
      'otk required 1.5',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1'], required: 1.5 }] } } } },
      one('archive.chart_settings.otkConfig.items[0].required', 'invalid_type'),
    ],
    [
      'otk label over 60',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1'], required: 1, label: 'l'.repeat(61) }] } } } },
      one('archive.chart_settings.otkConfig.items[0].label', 'too_long'),
    ],
    [
      'otk unknown field',
      { ...base(), archive: { chart_settings: { otkConfig: { items: [{ card_ids: ['s1'], required: 1, colour: 'x' }] } } } },
      one('archive.chart_settings.otkConfig.items[0].colour', 'unknown_field'),
    ],
    [
      '11 otk items',
      { ...base(), archive: { chart_settings: { otkConfig: { items: Array(11).fill({ card_ids: ['s1'], required: 1 }) } } } },
      one('archive.chart_settings.otkConfig.items', 'too_many'),
    ],
    ['featured card not in deck', { ...base(), featured_card_id: 's9' }, one('featured_card_id', 'not_in_deck')],
    ['card back malformed', { ...base(), card_back_id: 'back id!' }, one('card_back_id', 'invalid_value')],
    ['card back too long', { ...base(), card_back_id: 'b'.repeat(65) }, one('card_back_id', 'invalid_value')],
    ['visibility unknown', { ...base(), visibility: 'friends' }, one('visibility', 'invalid_value')],
    ['sort_order not integer', { ...base(), sort_order: 1.5 }, one('sort_order', 'invalid_type')],
    ['tags not array', { ...base(), tags: 'aggro' }, one('tags', 'invalid_type')],
    ['tag blank', { ...base(), tags: ['  '] }, one('tags[0]', 'required')],
    ['tag 33 chars', { ...base(), tags: ['t'.repeat(33)] }, one('tags[0]', 'too_long')],
    ['11 tags', { ...base(), tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, one('tags', 'too_many')],
    ['tag control char', { ...base(), tags: ['a\u0007b'] }, one('tags[0]', 'invalid_value')],
  ])('%s', (_name, body, expected) => {
    expect(failures(create(body))).toEqual(expected);
  });

  it('passes the same rules when they hold', () => {
    const deck = created({
      ...base(),
      guide: { system: 'x'.repeat(40), description: 'long', core_cards: ['s1', 'sL'], reserve_recommendations: ['g1', 'sh'] },
      archive: {
        key_components: { enabled: true, items: [{ card_id: 's1', reason: 'wins' }] },
        alternatives: {
          enabled: true,
          items: [
            { card_id: 'p1', reason: 'exile serves the USA', replaces_card_id: 'u1' },
            { card_id: 'n1', reason: 'neutral' },
          ],
        },
        chart_settings: { otkConfig: { items: [{ card_ids: ['s1', 'sL'], required: 7, label: 'burst' }] } },
      },
      tags: Array.from({ length: 10 }, (_, i) => `t${i}`),
      visibility: 'public',
      sort_order: -3,
      featured_card_id: 'sL',
      card_back_id: 'back.gold:1',
    });
    expect(deck.display).toEqual({ featured_card_id: 'sL', card_back_id: 'back.gold:1' });
    expect(deck.visibility).toBe('public');
  });

  it('a disabled section keeps its items: card rules apply, blank reasons do not fail', () => {
    const archive = { alternatives: { enabled: false, items: [{ card_id: 'u4', reason: '' }] } };
    expect(created({ ...base(), archive }).archive.alternatives).toEqual(archive.alternatives);
  });

  it('reports every failure at once', () => {
    const result = create({
      deck_code: '%%45|;;sL;s1s2s3s4s5s6u1u2u3u4',
      guide: { system: 'x'.repeat(41), core_cards: ['s9'] },
      archive: { key_components: { enabled: true, items: [] } },
      name: 'mine',
    });
    expect(failures(result)).toEqual(
      expect.arrayContaining([
        { path: 'name', code: 'not_writable' },
        { path: 'guide.system', code: 'too_long' },
        { path: 'deck_code', code: 'ally_limit' },
        { path: 'deck_code', code: 'deck_size' },
        { path: 'archive.key_components.items', code: 'items_required' },
      ]),
    );
  });
});

describe('patch', () => {
  const current = () =>
    created({
      ...base(),
      guide: { system: 'Tempo', core_cards: ['s6'] },
      archive: {
        key_components: { enabled: true, items: [{ card_id: 's5', reason: 'r' }] },
        alternatives: { enabled: true, items: [{ card_id: 'u4', reason: 'r', replaces_card_id: 's4' }] },
        chart_settings: { otkConfig: { items: [{ card_ids: ['s3'], required: 2 }] } },
      },
      featured_card_id: 's2',
    });
  const patch = (body: Record<string, unknown>, cur = current()) => checkPatch(body, cur, tiny, undefined);
  // A new code: one of the deck's 4-copy cards swapped for s7.
  const codeWithout = (id: string, by: string) => TINY_CODE.replace(id, by);

  it('an empty patch is empty_patch', () => {
    expect(failures(patch({}))).toEqual(one('', 'empty_patch'));
  });

  it('changes only what is sent; guide is replaced whole', () => {
    const r = patch({ tags: ['new'], guide: { system: 'Control' } });
    if (!r.ok) throw new Error(JSON.stringify(r.details));
    expect(r.content.tags).toEqual(['new']);
    expect(r.content.guide).toEqual({ system: 'Control', description: '', core_cards: [], reserve_recommendations: [] });
    expect(r.content.archive).toEqual(current().archive);
    expect(r.content.display.featured_card_id).toBe('s2');
  });

  it('archive sections are replaced per section', () => {
    const r = patch({ archive: { key_components: { enabled: false, items: [] } } });
    if (!r.ok) throw new Error(JSON.stringify(r.details));
    expect(r.content.archive.key_components).toEqual({ enabled: false, items: [] });
    expect(r.content.archive.alternatives).toEqual(current().archive.alternatives);
  });

  it('a new code that keeps the guide usable is accepted', () => {
    expect(patch({ deck_code: codeWithout('s1', 's7') }).ok).toBe(true);
  });

  it('a new code that drops a core card is guide_required unless a guide is sent', () => {
    const code = codeWithout('s6', 's7');
    expect(failures(patch({ deck_code: code }))).toEqual(one('guide', 'guide_required'));
    expect(patch({ deck_code: code, guide: { system: 'Tempo' } }).ok).toBe(true);
    expect(failures(patch({ deck_code: code, guide: { system: 'Tempo', core_cards: ['s6'] } }))).toEqual(
      one('guide.core_cards[0]', 'not_in_deck'),
    );
  });

  it('a new code with no usable current guide needs a guide', () => {
    const legacy = { ...current(), guide: null };
    expect(failures(patch({ deck_code: codeWithout('s1', 's7') }, legacy))).toEqual(one('guide', 'guide_required'));
    expect(patch({ tags: ['x'] }, legacy).ok).toBe(true);
  });

  it('archive and featured card are re-validated against a new code, on their own paths', () => {
    expect(failures(patch({ deck_code: codeWithout('s5', 's7') }))).toEqual(one('archive.key_components.items[0].card_id', 'not_in_deck'));
    expect(failures(patch({ deck_code: codeWithout('s4', 's7') }))).toEqual(
      one('archive.alternatives.items[0].replaces_card_id', 'not_in_deck'),
    );
    expect(failures(patch({ deck_code: codeWithout('s3', 's7') }))).toEqual(
      one('archive.chart_settings.otkConfig.items[0].card_ids[0]', 'not_in_deck'),
    );
    expect(failures(patch({ deck_code: codeWithout('s2', 's7') }))).toEqual(one('featured_card_id', 'not_in_deck'));
  });

  it('alternatives must still fit the new factions; a corrected archive in the same request passes', () => {
    const cur = created({ ...base(), archive: { alternatives: { enabled: true, items: [{ card_id: 'u4', reason: 'r' }] } } });
    const legal = '%%41|;;sL;g1s1s2s3s4s5s6s7s8'; // Soviet Union / Germany: no USA card fits any more
    expect(failures(patch({ deck_code: legal }, cur))).toEqual(one('archive.alternatives.items[0].card_id', 'wrong_faction'));
    expect(patch({ deck_code: legal, archive: { alternatives: { enabled: false, items: [] } } }, cur).ok).toBe(true);
  });

  it('null clears the featured card and card back; archive sections may not be null', () => {
    const r = patch({ featured_card_id: null });
    expect(r.ok && r.content.display.featured_card_id).toBe(null);
    expect(failures(patch({ archive: { key_components: null } }))).toEqual(one('archive.key_components', 'null_section'));
  });

  it('derived fields are not writable in a patch either', () => {
    expect(failures(patch({ cards_snapshot: [] }))).toEqual(one('cards_snapshot', 'not_writable'));
  });
});

describe('delete body', () => {
  it('must be exactly {}', () => {
    expect(checkEmptyObject({})).toEqual([]);
    expect(checkEmptyObject({ a: 1 }).map((d) => [d.path, d.code])).toEqual([['a', 'must_be_empty_object']]);
  });
});

describe("a deck's archetype on a write (contract §13.3)", () => {
  const rules = {
    archetypes: [
      {
        id: 'soviet-s7',
        names: { en: 'Soviet Union · S7', de: 'Sowjetunion · S7' },
        main: 'soviet',
        ally: 'any',
        priority: 1,
        holds: [{ card: 's7', min: 4 }],
      },
    ],
  };
  const cluster = { id: 'cluster-soviet-s1-s2', name: 'Soviet Union · s1, s2', by: 'cluster' } as const;
  const withS7 = TINY_CODE.replace('s1s2', 's2s7');
  const kept = (code = TINY_CODE) => ({ ...created({ ...base(), deck_code: code }), archetype: cluster });

  it('by the rules given, named in English; none given or none taking it: none', () => {
    const taken = checkCreate({ ...base(), deck_code: withS7 }, tiny, rules);
    expect(taken.ok && taken.content.archetype).toEqual({ id: 'soviet-s7', name: 'Soviet Union · S7', by: 'rule' });
    const none = checkCreate(base(), tiny, rules);
    expect(none.ok && none.content.archetype).toBeNull();
    const noRules = checkCreate({ ...base(), deck_code: withS7 }, tiny, undefined);
    expect(noRules.ok && noRules.content.archetype).toBeNull();
  });

  it('a PATCH keeps the cluster a deck was given while its code is the same; a new code, or a rule taking it, ends it', () => {
    const tags = checkPatch({ tags: ['x'] }, kept(), tiny, rules);
    expect(tags.ok && tags.content.archetype).toEqual(cluster);
    // The same deck in another spelling of its code is the same code.
    const respelled = checkPatch({ deck_code: ` ${TINY_CODE.replace('s1s2', 's2s1')} ` }, kept(), tiny, rules);
    expect(respelled.ok && respelled.content.archetype).toEqual(cluster);
    const moved = checkPatch({ deck_code: TINY_CODE.replace('s1s2', 's2s8') }, kept(), tiny, rules);
    expect(moved.ok && moved.content.archetype).toBeNull();
    const ruled = checkPatch({ deck_code: withS7 }, kept(), tiny, rules);
    expect(ruled.ok && ruled.content.archetype).toEqual({ id: 'soviet-s7', name: 'Soviet Union · S7', by: 'rule' });
    // A rule's archetype is never carried: the rules in use decide it on each write.
    const ruleBefore = { ...kept(), archetype: { id: 'retired', name: 'Retired', by: 'rule' as const } };
    const retired = checkPatch({ tags: ['y'] }, ruleBefore, tiny, rules);
    expect(retired.ok && retired.content.archetype).toBeNull();
    // No rules read (a card a rule names left the catalogue): what the deck was given stays while its code does
    // (hostile review: every write wiped it).
    const unread = checkPatch({ tags: ['z'] }, ruleBefore, tiny, undefined);
    expect(unread.ok && unread.content.archetype).toEqual(ruleBefore.archetype);
    const unreadMoved = checkPatch({ deck_code: withS7 }, ruleBefore, tiny, undefined);
    expect(unreadMoved.ok && unreadMoved.content.archetype).toBeNull();
  });
});
