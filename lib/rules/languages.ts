/**
 * Languages (contract §10.1): a card's names by language, and which one an answer is in. A language is
 * a BCP 47 primary tag as the catalogue names it (`en`, `de`, `ru`, `zh`); English is every card's
 * `name`, and what any answer falls back to. Pure: no HTTP.
 */

/** English: every card's `name`, and the language of an answer when nothing else matches. */
export const DEFAULT_LANGUAGE = 'en';
/** A language as catalogues name it: a primary tag. */
export const LANGUAGE = /^[a-z]{2,3}$/;
/** What `lang` may be: a BCP 47 tag (`ru`, `ru-RU`, `zh-Hans`); its primary tag is the language. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

export const primaryOf = (tag: string): string => (tag.split('-')[0] as string).toLowerCase();

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
 * The language of an answer: `lang` when given (English when the catalogue lacks it: never an error),
 * else the best range of Accept-Language the catalogue has, else English.
 */
export function answerLanguage(lang: string | undefined, acceptLanguage: string | undefined, available: ReadonlySet<string>): string {
  if (lang !== undefined) {
    const wanted = primaryOf(lang);
    return available.has(wanted) ? wanted : DEFAULT_LANGUAGE;
  }
  for (const range of ranges(acceptLanguage ?? '')) {
    if (range === '*') return DEFAULT_LANGUAGE;
    const wanted = primaryOf(range);
    if (available.has(wanted)) return wanted;
  }
  return DEFAULT_LANGUAGE;
}
