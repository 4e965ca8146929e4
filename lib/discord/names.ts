/** The names of the Discord commands and their options, as interactions carry them (Discord sends the default names, whatever the locale). */
export const COMMAND = { deck: 'deck', card: 'card' } as const;
export const OPTION = { code: 'code', name: 'name' } as const;
