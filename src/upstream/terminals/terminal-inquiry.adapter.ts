/**
 * The TerminalSource over HTTP terminal container inquiries: `GET <base>/terminals/<SMDG code>/
 * containers/<box>?line=<SCAC>`, as the simulator's terminals serve it. 404 is a box the terminal
 * does not know (yet); anything else that is not a readable 200 is `unavailable`.
 */
import type { TerminalLookup, TerminalQuery, TerminalSource } from "../../domain/terminals/terminal-source";
import { readTerminalInquiry } from "./terminal-inquiry.mapper";

export interface TerminalInquiryOptions {
  baseUrl: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

export class TerminalInquiryAdapter implements TerminalSource {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: TerminalInquiryOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, "");
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async lookup(query: TerminalQuery, signal?: AbortSignal): Promise<TerminalLookup> {
    const url = new URL(
      `${this.baseUrl}/terminals/${encodeURIComponent(query.terminalCode)}/containers/${encodeURIComponent(query.containerNumber)}`,
    );
    if (query.carrierScac) url.searchParams.set("line", query.carrierScac);
    const deadline = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "application/json" },
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
    } catch (error) {
      return { kind: "unavailable", reason: error instanceof Error ? error.message : String(error) };
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return { kind: "not_known" };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { kind: "unavailable", reason: `terminal answered ${response.status}` };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { kind: "unavailable", reason: "terminal answer is not JSON" };
    }
    const read = readTerminalInquiry(body);
    return read.ok ? { kind: "found", answer: read.answer } : { kind: "unavailable", reason: read.detail };
  }
}
