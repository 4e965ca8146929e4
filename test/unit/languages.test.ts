/** Which language an answer is in (contract §10.1, §12.5): lang, else Accept-Language's best of those available (the 12 served by default), else English. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FACTION_NAMES, factionName } from '#rules/faction-names.ts';
import { FACTIONS, type FactionId } from '#rules/factions.ts';
import { answerLanguage, cardNamesIn, contentLanguage, LANGUAGE_TAG, languageOfTag, SERVED_LANGUAGES } from '#rules/languages.ts';

const have = new Set(['en', 'de', 'ru', 'zh']);
const all = new Set<string>(SERVED_LANGUAGES.map((l) => l.tag));

describe('answerLanguage', () => {
  it('by default among the 12 served, whatever a catalogue names (contract §12.5): card names in it or English, said in Content-Language', () => {
    expect(answerLanguage('ja', undefined)).toBe('ja');
    expect(answerLanguage(undefined, 'fr-FR, de;q=0.8')).toBe('fr');
    expect(answerLanguage('el', 'de')).toBe('en');
    const named = new Set(['en', 'de']);
    expect(['en', 'de', 'ja', 'zh-Hant'].map((l) => [cardNamesIn(l, named), contentLanguage(l, named)])).toEqual([
      ['en', 'en'],
      ['de', 'de'],
      ['en', 'ja, en'],
      ['en', 'zh-Hant, en'],
    ]);
  });

  it('lang wins, by its primary tag; one the catalogue lacks is English, never an error', () => {
    expect(answerLanguage('ru', 'de', have)).toBe('ru');
    expect(answerLanguage('zh-Hans', undefined, have)).toBe('zh');
    expect(answerLanguage('RU-ru', undefined, have)).toBe('ru');
    expect(answerLanguage('fr', 'de', have)).toBe('en');
  });

  it('else the best range of Accept-Language the catalogue has, by weight then order; q=0 never; * is English', () => {
    expect(answerLanguage(undefined, 'fr-FR, de;q=0.9, ru;q=0.8', have)).toBe('de');
    expect(answerLanguage(undefined, 'ru;q=0.5, de;q=0.9', have)).toBe('de');
    expect(answerLanguage(undefined, 'de;q=0, ru;q=0.1', have)).toBe('ru');
    expect(answerLanguage(undefined, 'zh-CN,zh;q=0.9,en;q=0.8', have)).toBe('zh');
    expect(answerLanguage(undefined, '*', have)).toBe('en');
    expect(answerLanguage(undefined, 'fr', have)).toBe('en');
    expect(answerLanguage(undefined, '', have)).toBe('en');
    expect(answerLanguage(undefined, undefined, have)).toBe('en');
  });

  it('Japanese and both Chinese scripts (contract §11.3): ja, zh-Hant, and the Accept-Language forms of each', () => {
    for (const [tag, language] of [
      ['ja', 'ja'],
      ['ja-JP', 'ja'],
      ['zh', 'zh'],
      ['zh-Hans', 'zh'],
      ['zh-CN', 'zh'],
      ['zh-SG', 'zh'],
      ['zh-Hans-TW', 'zh'],
      ['zh-Hant', 'zh-Hant'],
      ['zh-TW', 'zh-Hant'],
      ['zh-HK', 'zh-Hant'],
      ['zh-MO', 'zh-Hant'],
      ['zh-Hant-CN', 'zh-Hant'],
      ['ZH-tw', 'zh-Hant'],
      ['pt-BR', 'pt'],
      ['es-419', 'es'],
    ] as const)
      expect([tag, languageOfTag(tag), answerLanguage(tag, undefined, all), answerLanguage(undefined, `fr-CA;q=0.1, ${tag}`, all)]).toEqual(
        [tag, language, language, language],
      );
    // A Traditional reader of a catalogue without Traditional names gets English, never the Simplified ones.
    expect(answerLanguage(undefined, 'zh-TW', have)).toBe('en');
  });

  it('any header, any lang: always a language the catalogue has', () => {
    fc.assert(
      fc.property(
        fc.option(fc.stringMatching(LANGUAGE_TAG), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (lang, accept) => {
          expect(have.has(answerLanguage(lang, accept, have))).toBe(true);
        },
      ),
    );
  });
});

describe('factionName', () => {
  it("the project's table where it has the language (every faction of it), else English", () => {
    for (const [language, names] of Object.entries(FACTION_NAMES))
      for (const f of FACTIONS) expect(factionName(f.id, language), `${language} ${f.id}`).toBe(names[f.id as FactionId]);
    expect([
      factionName('soviet', 'de'),
      factionName('soviet', 'ja'),
      factionName('soviet', 'el'),
      factionName('soviet', 'constructor'),
    ]).toEqual(['Sowjetunion', 'ソビエト連邦', 'Soviet Union', 'Soviet Union']);
    // Every language the service serves has its table.
    for (const { tag } of SERVED_LANGUAGES) if (tag !== 'en') expect(Object.hasOwn(FACTION_NAMES, tag), tag).toBe(true);
  });
});
