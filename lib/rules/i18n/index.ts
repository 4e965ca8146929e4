/**
 * The languages the service serves, one file each (a new language is its file and its line here; what else it
 * needs: docs/layout.md, "A new language"). The order is the one `GET /api/v1/languages` lists them in.
 */
import { language as de, labels as deLabels } from './de.ts';
import { language as en, labels as enLabels } from './en.ts';
import { language as es, labels as esLabels } from './es.ts';
import { language as fr, labels as frLabels } from './fr.ts';
import { language as it, labels as itLabels } from './it.ts';
import { language as ja, labels as jaLabels } from './ja.ts';
import { language as ko, labels as koLabels } from './ko.ts';
import { language as pl, labels as plLabels } from './pl.ts';
import { language as pt, labels as ptLabels } from './pt.ts';
import { language as ru, labels as ruLabels } from './ru.ts';
import { language as zh, labels as zhLabels } from './zh.ts';
import { language as zhHant, labels as zhHantLabels } from './zh-hant.ts';

export const LANGUAGES = [en, de, es, fr, it, ja, ko, pl, pt, ru, zh, zhHant] as const;

/** Each language's labels, by its tag (apart from LANGUAGES: a function that shows no label bundles none). */
export const LABEL_SETS = {
  en: enLabels,
  de: deLabels,
  es: esLabels,
  fr: frLabels,
  it: itLabels,
  ja: jaLabels,
  ko: koLabels,
  pl: plLabels,
  pt: ptLabels,
  ru: ruLabels,
  zh: zhLabels,
  'zh-Hant': zhHantLabels,
} as const satisfies Record<(typeof LANGUAGES)[number]['tag'], unknown>;
