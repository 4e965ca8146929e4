/** A word's form for a count, by the language's plural rules (CLDR's, as Intl.PluralRules has them). */

/** A word's forms by plural category: `other` always, the others a language's rules use (English: one; Russian: one, few, many). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The form for `n` in a language: `pluralOf('ru')(22, { one: 'карта', few: 'карты', many: 'карт', other: 'карт' })` is 'карты'. */
export function pluralOf(tag: string): (n: number, forms: PluralForms) => string {
  const rules = new Intl.PluralRules(tag);
  return (n, forms) => forms[rules.select(n)] ?? forms.other;
}
