/**
 * Every label the service writes on a share page, a deck image or a Discord embed, in each served language
 * (contract §11.5: "Every label on a page, an image or a Discord embed is in the answer's language"). Pure
 * data: a `Labels` a language — the compiler holds each language to every label — and English where a
 * language is not served. What a deck's owner wrote, card and faction names (the catalogue's), and the deck
 * rules' messages (the API's, in English as every error of the API) are not labels.
 */
import { LABEL_SETS } from './i18n/index.ts';
import type { Labels } from './i18n/language.ts';
import { DEFAULT_LANGUAGE, type SERVED_LANGUAGES } from './languages.ts';

export type { Labels } from './i18n/language.ts';

export type ServedLanguage = (typeof SERVED_LANGUAGES)[number]['tag'];

/** Every served language's labels (a language's entry must hold every label: the compiler checks). */
export const LABELS: Readonly<Record<ServedLanguage, Labels>> = LABEL_SETS;

/** The labels of a language: its own where it is served, else English. */
export const labelsFor = (language: string): Labels =>
  Object.hasOwn(LABELS, language) ? LABELS[language as ServedLanguage] : LABELS[DEFAULT_LANGUAGE];

/**
 * Every label of a language written out (functions with sample arguments of ASCII and digits): what a face
 * drawing that language's images must hold beside its names (scripts/subset-fonts.ts), and what a test
 * reads to find every label.
 */
export function labelTexts(language: string): string[] {
  const labels = labelsFor(language);
  const out: string[] = [];
  for (const value of Object.values(labels)) {
    if (typeof value === 'string') out.push(value);
    else if (typeof value === 'function') for (const n of [1, 2, 5, 22]) out.push((value as (...args: unknown[]) => string)(n, n, `${n}%`));
    else out.push(...Object.values(value as Record<string, string>));
  }
  return out;
}
