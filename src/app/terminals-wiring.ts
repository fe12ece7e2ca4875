import type { TerminalSource } from "../domain/terminals/terminal-source";
import { TerminalInquiryAdapter } from "../upstream/terminals/terminal-inquiry.adapter";

/** The terminal source at a base URL (QUAYSIDE_TERMINALS_URL, else the embedded simulator's terminals). */
export function terminalSourceFor(baseUrl: string | undefined): TerminalSource | undefined {
  return baseUrl ? new TerminalInquiryAdapter({ baseUrl }) : undefined;
}
