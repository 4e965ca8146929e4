/**
 * Faction names by language (contract §10.1: the project's own table, a language's in its file: lib/rules/i18n/;
 * English where it has none): what pages and images show of a deck's factions in the language of its card names.
 * The countries' usual names in each language; ANZAC kept as the corps' own acronym (in the script of the language).
 */
import { type FactionId, factionById } from './factions.ts';
import { LANGUAGES } from './i18n/index.ts';

export const FACTION_NAMES: Readonly<Record<string, Readonly<Record<FactionId, string>>>> = /* @__PURE__ */ Object.fromEntries(
  LANGUAGES.flatMap((l) => ('factions' in l ? [[l.tag, l.factions]] : [])),
);

/** A faction's name in a language: the table's, else its English name (or its id, for one unknown). */
export const factionName = (id: string, language: string): string =>
  (Object.hasOwn(FACTION_NAMES, language) ? FACTION_NAMES[language]?.[id as FactionId] : undefined) ?? factionById(id)?.name ?? id;
