import type { TerminalAnswer } from "./terminal-facts";

/** What the service asks a terminal: one box at one terminal, with the line that carries it. */
export interface TerminalQuery {
  /** SMDG terminal code. */
  terminalCode: string;
  containerNumber: string;
  /** The line's SCAC, when known: some terminal systems file boxes by line. */
  carrierScac: string | null;
}

export type TerminalLookup =
  | { kind: "found"; answer: TerminalAnswer }
  /** The terminal has no record of the box (not manifested yet, or never there). */
  | { kind: "not_known" }
  /** The terminal could not be asked or read (down, timeout, a body it could not read). */
  | { kind: "unavailable"; reason: string };

/**
 * The domain's port to terminal data. The adapter over the simulator's terminals is in
 * src/upstream/terminals; a real terminal operating system or a port community system plugs in here.
 * Adapters map the source's hold names to HOLD_TYPES and drop blank holds (activeHolds).
 */
export interface TerminalSource {
  lookup(query: TerminalQuery, signal?: AbortSignal): Promise<TerminalLookup>;
}
