/** What the library plays by archetype (contract §13.3; lib/rules/archetype-figures.ts), pure. */
import { describe, expect, it } from 'vitest';
import { archetypeFigures } from '#rules/archetype-figures.ts';
import { NO_TREND, withWeek } from '#rules/archetype-trend.ts';

const rules = {
  archetypes: [
    {
      id: 'soviet-a',
      names: { en: 'Soviet Union · A', de: 'Sowjetunion · A' },
      main: 'soviet',
      ally: 'any',
      priority: 1,
      holds: [{ card: '2B', min: 2 }],
      one_of: [
        { cards: ['2C', '2D'], min: 2 },
        { cards: ['2D', '2E'], min: 1 },
      ],
    },
  ],
};
const clusters = new Map([
  ['cluster-germany-0123456789ab', { name: 'Germany · X · Y', main: 'germany', core: ['10', '11'], tech: ['12'] }],
]);

describe('archetype figures', () => {
  it('each counted archetype named, its nation and key cards, its share of the public decks; most decks first, then id', () => {
    const counts = new Map([
      ['cluster-germany-0123456789ab', 3],
      ['soviet-a', 3],
      ['retired-rule', 9],
      ['cluster-japan-ffffffffffff', 2],
      ['gone', 0],
    ]);
    // Last week's figures as the daily job kept them, this week's now: each archetype's share of each week.
    const kept = withWeek(NO_TREND, new Date('2026-11-20T05:15:00Z'), 4, new Map([['soviet-a', 1]]));
    const trend = withWeek(kept, new Date('2026-11-25T12:00:00Z'), 7, counts);
    const rows = archetypeFigures({ decks: 7, counts, rules, clusters, trend, language: 'de' });
    expect(rows).toEqual([
      {
        id: 'cluster-germany-0123456789ab',
        name: 'Germany · X · Y',
        by: 'cluster',
        main_faction: 'germany',
        decks: 3,
        share: 0.4286,
        key_cards: { core: ['10', '11'], tech: ['12'] },
        trend: [
          { week: '2026-11-16', share: 0 },
          { week: '2026-11-23', share: 0.4286 },
        ],
      },
      {
        id: 'soviet-a',
        name: 'Sowjetunion · A',
        by: 'rule',
        main_faction: 'soviet',
        decks: 3,
        share: 0.4286,
        key_cards: { core: ['2B'], tech: ['2C', '2D', '2E'] },
        trend: [
          { week: '2026-11-16', share: 0.25 },
          { week: '2026-11-23', share: 0.4286 },
        ],
      },
    ]);
    expect(archetypeFigures({ decks: 7, counts, rules, clusters, trend, language: 'en', main: 'soviet' }).map((r) => r.name)).toEqual([
      'Soviet Union · A',
    ]);
    expect(
      archetypeFigures({ decks: 0, counts: new Map(), rules: undefined, clusters: new Map(), trend: NO_TREND, language: 'en' }),
    ).toEqual([]);
  });
});
