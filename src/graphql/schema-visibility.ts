/**
 * Marks a root field as internal: the facades' persisted operations may run it, but the schema served
 * on `/graphql` (and printed to `schema.graphql`) does not have it, so no client can call it.
 */
export const INTERNAL = { internal: true } as const;
