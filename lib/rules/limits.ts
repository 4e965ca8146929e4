/** The limits of requirement §8 and contract §3, in one place. */
export const LIMITS = {
  deckCodeChars: 400,
  /** A deck's text export (contract §11.3): a 39-card deck's is about 1,600 characters in any language. */
  deckTextChars: 16_000,
  systemChars: 40,
  descriptionChars: 20_000,
  coreCards: 30,
  reserveRecommendations: 30,
  keyComponents: 8,
  alternatives: 10,
  reasonChars: 1_000,
  otkItems: 10,
  otkCards: 39,
  labelChars: 60,
  tags: 10,
  tagChars: 32,
  replacements: 20,
  replaceCount: 4,
  activeKeys: 20,
  keyLabelChars: 60,
  keyExpiryDays: 365,
} as const;
