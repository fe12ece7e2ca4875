/** A change (tracking, correcting, sharing, webhook endpoints) needs developer mode and a key that may write. */
export const WRITE_SCOPES = { $all: { developerMode: true, writableKey: true } } as const;
