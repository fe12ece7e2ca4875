import type { Signed } from "./context";

/** Registers a signed-in GET or POST page on the dashboard router. */
export type Mount = (path: string, fn: (signed: Signed) => Promise<void>) => void;
