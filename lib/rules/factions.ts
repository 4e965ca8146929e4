/** KARDS factions as the API names them (contract §1). */

export const FACTIONS = [
  { id: 'germany', digit: '1', name: 'Germany', main: true },
  { id: 'britain', digit: '2', name: 'Britain', main: true },
  { id: 'japan', digit: '3', name: 'Japan', main: true },
  { id: 'soviet', digit: '4', name: 'Soviet Union', main: true },
  { id: 'usa', digit: '5', name: 'United States', main: true },
  { id: 'france', digit: '6', name: 'France', main: false },
  { id: 'italy', digit: '7', name: 'Italy', main: false },
  { id: 'poland', digit: '8', name: 'Poland', main: false },
  { id: 'finland', digit: '9', name: 'Finland', main: false },
  { id: 'anzac', digit: 'a', name: 'ANZAC', main: false },
] as const;

export type Faction = (typeof FACTIONS)[number];
export type FactionId = Faction['id'];
/** A card's faction: a deck faction, or neutral (playable in any deck, never counted as the ally). */
export type CardFaction = FactionId | 'neutral';

export const FACTION_IDS: readonly FactionId[] = FACTIONS.map((f) => f.id);
export const MAIN_FACTION_IDS: readonly FactionId[] = FACTIONS.filter((f) => f.main).map((f) => f.id);

const byId = new Map<string, Faction>(FACTIONS.map((f) => [f.id, f]));
const byDigit = new Map<string, Faction>(FACTIONS.map((f) => [f.digit, f]));

export const factionById = (id: string): Faction | undefined => byId.get(id);
export const factionByDigit = (digit: string): Faction | undefined => byDigit.get(digit);

/** The derived deck name: "<main display name> / <ally display name>". */
export const deckName = (main: FactionId, ally: FactionId): string => `${byId.get(main)?.name} / ${byId.get(ally)?.name}`;

/** Faction ids by the nation names of the kards.com card API. */
export const FACTION_BY_NATION: Readonly<Record<string, CardFaction>> = {
  Germany: 'germany',
  Britain: 'britain',
  Japan: 'japan',
  Soviet: 'soviet',
  USA: 'usa',
  France: 'france',
  Italy: 'italy',
  Poland: 'poland',
  Finland: 'finland',
  ANZAC: 'anzac',
  Anzac: 'anzac',
  Neutral: 'neutral',
};

/**
 * Faction names by language (contract §10.1: the project's own table; English where it has none): what
 * pages and images show of a deck's factions in the language of its card names. The countries' usual
 * names in each language; ANZAC kept as the corps' own acronym (in the script of the language).
 */
export const FACTION_NAMES: Readonly<Record<string, Readonly<Record<FactionId, string>>>> = {
  de: {
    germany: 'Deutschland',
    britain: 'Großbritannien',
    japan: 'Japan',
    soviet: 'Sowjetunion',
    usa: 'Vereinigte Staaten',
    france: 'Frankreich',
    italy: 'Italien',
    poland: 'Polen',
    finland: 'Finnland',
    anzac: 'ANZAC',
  },
  fr: {
    germany: 'Allemagne',
    britain: 'Grande-Bretagne',
    japan: 'Japon',
    soviet: 'Union soviétique',
    usa: 'États-Unis',
    france: 'France',
    italy: 'Italie',
    poland: 'Pologne',
    finland: 'Finlande',
    anzac: 'ANZAC',
  },
  ru: {
    germany: 'Германия',
    britain: 'Великобритания',
    japan: 'Япония',
    soviet: 'Советский Союз',
    usa: 'США',
    france: 'Франция',
    italy: 'Италия',
    poland: 'Польша',
    finland: 'Финляндия',
    anzac: 'АНЗАК',
  },
  es: {
    germany: 'Alemania',
    britain: 'Gran Bretaña',
    japan: 'Japón',
    soviet: 'Unión Soviética',
    usa: 'Estados Unidos',
    france: 'Francia',
    italy: 'Italia',
    poland: 'Polonia',
    finland: 'Finlandia',
    anzac: 'ANZAC',
  },
  it: {
    germany: 'Germania',
    britain: 'Gran Bretagna',
    japan: 'Giappone',
    soviet: 'Unione Sovietica',
    usa: 'Stati Uniti',
    france: 'Francia',
    italy: 'Italia',
    poland: 'Polonia',
    finland: 'Finlandia',
    anzac: 'ANZAC',
  },
  ja: {
    germany: 'ドイツ',
    britain: 'イギリス',
    japan: '日本',
    soviet: 'ソビエト連邦',
    usa: 'アメリカ合衆国',
    france: 'フランス',
    italy: 'イタリア',
    poland: 'ポーランド',
    finland: 'フィンランド',
    anzac: 'アンザック',
  },
  ko: {
    germany: '독일',
    britain: '영국',
    japan: '일본',
    soviet: '소련',
    usa: '미국',
    france: '프랑스',
    italy: '이탈리아',
    poland: '폴란드',
    finland: '핀란드',
    anzac: '앤잭',
  },
  pl: {
    germany: 'Niemcy',
    britain: 'Wielka Brytania',
    japan: 'Japonia',
    soviet: 'Związek Radziecki',
    usa: 'Stany Zjednoczone',
    france: 'Francja',
    italy: 'Włochy',
    poland: 'Polska',
    finland: 'Finlandia',
    anzac: 'ANZAC',
  },
  pt: {
    germany: 'Alemanha',
    britain: 'Grã-Bretanha',
    japan: 'Japão',
    soviet: 'União Soviética',
    usa: 'Estados Unidos',
    france: 'França',
    italy: 'Itália',
    poland: 'Polônia',
    finland: 'Finlândia',
    anzac: 'ANZAC',
  },
  'zh-Hant': {
    germany: '德國',
    britain: '英國',
    japan: '日本',
    soviet: '蘇聯',
    usa: '美國',
    france: '法國',
    italy: '義大利',
    poland: '波蘭',
    finland: '芬蘭',
    anzac: '澳紐軍團',
  },
  zh: {
    germany: '德国',
    britain: '英国',
    japan: '日本',
    soviet: '苏联',
    usa: '美国',
    france: '法国',
    italy: '意大利',
    poland: '波兰',
    finland: '芬兰',
    anzac: '澳新军团',
  },
};

/** A faction's name in a language: the table's, else its English name (or its id, for one unknown). */
export const factionName = (id: string, language: string): string =>
  (Object.hasOwn(FACTION_NAMES, language) ? FACTION_NAMES[language]?.[id as FactionId] : undefined) ?? byId.get(id)?.name ?? id;
