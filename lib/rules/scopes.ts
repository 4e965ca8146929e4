/**
 * API key scopes (requirement §5, contract §9.4): what a key may do. Each is its own: none implies
 * another (`keys:manage` and `account:delete` included). Pure data, shared by auth, the store and the route table.
 */
export const SCOPES = [
  'decks:read',
  'decks:write',
  'decks:delete',
  'keys:manage',
  'account:delete',
  'collection:read',
  'collection:write',
  'events:write',
  'events:submit',
  'webhooks:manage',
] as const;
export type Scope = (typeof SCOPES)[number];
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
