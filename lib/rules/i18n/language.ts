/** What a served language's file declares (lib/rules/i18n/): the compiler holds each to every label. */
import type { CardType, Rarity } from '../card.ts';
import type { FactionId } from '../factions.ts';

/**
 * A served language, as its file declares it (lib/rules/i18n/): its tag, its name in itself, the game's locale of it
 * (the GraphQL endpoint's: kards-graphql.ts), its names of the factions (English has the factions' own); its labels
 * are its file's `labels`.
 */
export interface Language {
  tag: string;
  name: string;
  kardsLocale: string;
  factions?: Readonly<Record<FactionId, string>>;
}

export interface Labels {
  /** "39 cards". */
  cards: (n: number) => string;
  /** A kredit cost's heading in the card list: "3 kredits · 8" (8 copies at that cost). */
  kreditGroup: (kredits: number, copies: number) => string;
  /** Cards the catalogue no longer has (a heading: "Not in the catalogue · 2"). */
  notInCatalogue: string;
  /** A bare code's page title. */
  codeTitle: (name: string) => string;
  /** A saved deck's page title. */
  byAuthor: (name: string, author: string) => string;
  /** A byline: "by Ann". */
  by: (author: string) => string;
  /** "Germany (main), Finland (ally)". */
  mainAlly: (main: string, ally: string) => string;
  notLegal: string;
  /** The image's line under the title: the first broken rule, and how many more. */
  notLegalLine: (first: string, more: number) => string;
  notRanked: string;
  /** The image's line for a legal deck ranked play refuses. */
  notRankedLine: (reserved: number) => string;
  /** Why ranked play refuses the cards listed under notRanked. */
  reserveHint: string;
  /** The mark beside a card of the Reserve pool (a letter or two). */
  reserveMark: string;
  reserveTitle: string;
  cardsByKredits: string;
  kreditCurve: string;
  kreditCurveAlt: string;
  types: string;
  typesAlt: string;
  type: Record<CardType, string>;
  rarity: Record<Rarity, string>;
  otkChart: string;
  otkAlt: string;
  /** An OTK legend line: "2 of 6 copies: 45.1% by 10 cards". */
  otkLegend: (required: number, pool: number, percent: string) => string;
  guide: string;
  keyComponents: string;
  alternatives: string;
  /** An alternative's card it stands in for: "(for X)". */
  replaces: (name: string) => string;
  deckCode: string;
  copy: string;
  copied: string;
  /** The share page's list of decks like the deck (contract §12.3). */
  similar: string;
  /** What a deck's archetype is called (contract §13.3): the share page's line and a Discord /deck embed's. */
  archetype: string;
  /** A Discord /deck embed's field: the public deck most like it (contract §12.3). */
  closestDeck: string;
  selectToCopy: string;
  asJson: string;
  itsImage: string;
  allyLimit: string;
  ruleFails: string;
  /** The title of a card's "in N%": "in 40% of Germany decks". */
  playedTitle: (percent: string, main: string) => string;
  /** What "%" means on a page: over how many public decks of the main nation. */
  playedHint: (decks: number, main: string) => string;
  /** The image's alt text. */
  imageAlt: (title: string) => string;
  /** The summary's "curve 1:4 2:6…" and "key cards A, B". */
  summaryCurve: string;
  summaryKeyCards: string;
  /** The image's last row when the list is cut: "… and 5 more" (cards). */
  moreRows: (n: number) => string;
  /** A kredit cost's heading again at the top of the next column, its cards going on there. */
  continued: (heading: string) => string;
  /** The image footer of a bare code. */
  aDeckCode: string;
  legal: string;
  notLegalShort: string;
  notRankedShort: string;
  whyNotLegal: string;
  /** A list cut short: "… 5 more". */
  more: (n: number) => string;
  unreadable: (why: string) => string;
  noCard: (name: string) => string;
  unknownCommand: string;
  kredits: string;
  typeField: string;
  rarityField: string;
  nation: string;
  neutral: string;
  set: string;
  spawned: string;
  /** A spawned card's mark where it is listed beside others (autocomplete): one word. */
  spawnedMark: string;
  alsoServes: (faction: string) => string;
}
