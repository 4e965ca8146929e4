/**
 * Languages (contract §10.1, §11.3): a card's names by language, and which one an answer is in. A language
 * is a BCP 47 primary tag as the catalogue names it (`en`, `de`, `ja`, `zh` — Simplified Chinese), or
 * `zh-Hant` (Traditional Chinese, which shares `zh` with Simplified); English is every card's `name`, and
 * what any answer falls back to. Pure: no HTTP.
 */
import { DEFAULT_LANGUAGE } from './card.ts';
import { LANGUAGES } from './i18n/index.ts';

export { DEFAULT_LANGUAGE };

/** A language as catalogues name it: a primary tag, or zh-Hant. */
export const LANGUAGE = /^(?:[a-z]{2,3}|zh-Hant)$/;
/** What `lang` may be: a BCP 47 tag (`ru`, `ru-RU`, `zh-Hans`, `zh-TW`); languageOfTag says which language it is. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The languages kards.com serves (contract §11.3; alex-weber/katy-kards-bot src/tools/language.js lists
 * them with the endpoint's locales, `ja-JP` and `zh-Hant` among them), each with its name in itself: a file
 * each (lib/rules/i18n/).
 */
export const SERVED_LANGUAGES = /* @__PURE__ */ LANGUAGES.map(({ tag, name }) => ({ tag, name }));

/** The tags of the served languages: what an answer's labels may be in (rules/labels.ts has each). */
export const SERVED_TAGS: ReadonlySet<string> = /* @__PURE__ */ new Set(SERVED_LANGUAGES.map((l) => l.tag));

/** Where Chinese is written in Traditional characters unless a script subtag says otherwise (Taiwan, Hong Kong, Macao). */
export const TRADITIONAL_REGIONS: ReadonlySet<string> = new Set(['tw', 'hk', 'mo']);

/**
 * The language a BCP 47 tag asks for: its primary tag (`de-AT` → de, `pt-BR` → pt), but for Chinese its
 * script — `zh-Hant`, or a Traditional region (`zh-TW`, `zh-HK`, `zh-MO`) with no `Hans`, is zh-Hant; any other
 * Chinese (`zh`, `zh-Hans`, `zh-CN`, `zh-SG`) is zh.
 */
export function languageOfTag(tag: string): string {
  const [primary = '', ...rest] = tag.toLowerCase().split('-');
  if (primary !== 'zh') return primary;
  if (rest.includes('hans')) return 'zh';
  return rest.includes('hant') || rest.some((r) => TRADITIONAL_REGIONS.has(r)) ? 'zh-Hant' : 'zh';
}

/** Accept-Language's ranges with their weights (RFC 9110 §12.5.4), best first (ties in the order sent); q=0 left out. */
function ranges(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .map((part, i) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
      return { range: range.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.range !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.range);
}

/**
 * The language of an answer: `lang` when given (English when it is not one of `available`: never an error),
 * else the best range of Accept-Language of `available`, else English. `available` is the served languages
 * (SERVED_TAGS) for an answer's labels and faction names, whatever the catalogue; card names follow it where
 * the catalogue has them (cardNamesIn).
 */
export function answerLanguage(
  lang: string | undefined,
  acceptLanguage: string | undefined,
  available: ReadonlySet<string> = SERVED_TAGS,
): string {
  if (lang !== undefined) {
    const wanted = languageOfTag(lang);
    return available.has(wanted) ? wanted : DEFAULT_LANGUAGE;
  }
  for (const range of ranges(acceptLanguage ?? '')) {
    if (range === '*') return DEFAULT_LANGUAGE;
    const wanted = languageOfTag(range);
    if (available.has(wanted)) return wanted;
  }
  return DEFAULT_LANGUAGE;
}

/** The language card names come in, in an answer in `language`: it when the catalogue names its cards in it, else English. */
export const cardNamesIn = (language: string, named: ReadonlySet<string>): string => (named.has(language) ? language : DEFAULT_LANGUAGE);

/**
 * An answer's Content-Language (RFC 9110 §8.5: a list when its parts are in more than one): its language, and English
 * after it when its card names fall back to English (labels in `language`, names in English).
 */
export const contentLanguage = (language: string, named: ReadonlySet<string>): string => {
  const names = cardNamesIn(language, named);
  return names === language ? language : `${language}, ${names}`;
};
