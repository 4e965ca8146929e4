/**
 * An item kind's leading key, declared once in its item module: the prefix its partition keys start with,
 * and the same as a grant's key pattern (lib/routes/route.ts Grant.leadingKeys, IAM's dynamodb:LeadingKeys), a stream filter's `prefix`
 * (lib/workers/) and a worker's dispatch. No key prefix is spelled outside lib/store/items/ (a test checks).
 */
export interface ItemKind {
  /** What its partition keys start with (`LIKE#`), or are (`CURSORKEYS`). */
  prefix: string;
  /** The leading-key pattern of a grant over its items (`LIKE#*`). */
  grant: string;
  /** Whether a partition key is one of its items. */
  owns: (pk: string) => boolean;
  /** The partition key of its item(s) for an id (`LIKE#<slug>`). */
  pk: (id: string | number) => string;
}

export const itemKind = (prefix: string, exact = false): ItemKind => ({
  prefix,
  grant: exact ? prefix : `${prefix}*`,
  owns: (pk) => (exact ? pk === prefix : pk.startsWith(prefix)),
  pk: (id) => `${prefix}${id}`,
});
