/** The limits of requirement §8 and contract §3, in one place. */
export const LIMITS = {
  deckCodeChars: 400,
  /** A link in a code's place (a kards.com deck-builder link: its code in ?hash=, the rest about 60 characters). */
  deckLinkChars: 600,
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
  /** Copies of a card a collection keeps (contract §12.3): more than a deck's limit, as a player may own. */
  ownedCopies: 99,
  /** A collection's text (the game's exports pasted, or Nx NAME lines): every real card's line in any language fits. */
  collectionTextChars: 120_000,
} as const;

/** Discord's bounds on what a message holds (Discord: Embed Limits; autocomplete choices; a choice's name). */
export const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  embeds: 10,
  embedTotal: 6000,
  content: 2000,
  choices: 25,
  choiceName: 100,
} as const;
