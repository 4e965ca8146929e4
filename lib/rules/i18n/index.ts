/**
 * The languages the service serves, one file each (a new language is its file and its line here; what else it
 * needs: docs/layout.md, "A new language"). The order is the one `GET /api/v1/languages` lists them in.
 */
import { language as de } from './de.ts';
import { language as en } from './en.ts';
import { language as es } from './es.ts';
import { language as fr } from './fr.ts';
import { language as it } from './it.ts';
import { language as ja } from './ja.ts';
import { language as ko } from './ko.ts';
import { language as pl } from './pl.ts';
import { language as pt } from './pt.ts';
import { language as ru } from './ru.ts';
import { language as zh } from './zh.ts';
import { language as zhHant } from './zh-hant.ts';

export const LANGUAGES = [en, de, es, fr, it, ja, ko, pl, pt, ru, zh, zhHant] as const;
