/** API key scopes (requirement §5): what a key may do. Pure data, shared by auth, the store and the route table. */
export const SCOPES = ['decks:read', 'decks:write', 'decks:delete'] as const;
export type Scope = (typeof SCOPES)[number];
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
