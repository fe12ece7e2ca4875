/**
 * Failures a carrier API shows in real life, switched on per carrier at run time so that clients'
 * retries, timeouts and fallbacks can be exercised against a live server.
 */
import type { DcsaEvent } from "./dcsa-types";
import { containerNumber, parseContainerNumber } from "./world/iso6346";

export type FaultMode =
  | "down"
  | "slow"
  | "server-error"
  | "malformed"
  | "rate-limited"
  // Habits of real carriers rather than failures: the answer is right, its form is not the ideal one.
  /** Each events page starts with a UTF-8 byte-order mark. */
  | "bom"
  /** `Next-Page` is a link relative to the host (`/MSCU/v2/events?...`), not an absolute URL. */
  | "relative-paging"
  /** No `Next-Page`: the next page is an RFC 8288 `Link: <...>; rel="next"` header. */
  | "link-paging"
  /**
   * A box query (`equipmentReference` alone) is answered with another box's events: the asked box's
   * journey under the number of the next box of its owner prefix (a carrier's mixed-up index).
   */
  | "other-box"
  // Pushes to event subscriptions (subscriptions.ts); the carrier's answers to queries are unchanged.
  /** Each event is pushed only `delayMs` after it was created (default 2 days). */
  | "push-late"
  /** Every push is sent twice. */
  | "push-duplicate"
  /** Pushes are signed with a key that is not the subscription's secret. */
  | "push-bad-signature"
  /**
   * The carrier's subscription service refuses new subscriptions (POST answers 503); lists, reads and
   * deletes still work, and pushes to the subscriptions it holds go on.
   */
  | "subscriptions-refused";

export interface Fault {
  mode: FaultMode;
  /** For "slow": how long to wait before answering normally (default 5000 ms); for "push-late" how long after its creation an event is pushed (default 2 days). */
  delayMs?: number;
  /** For "rate-limited" (default 30) and "server-error" with 503: the Retry-After header. */
  retryAfterSeconds?: number;
  /** For "server-error": the 5xx status to answer with (default 500). */
  status?: number;
}

export interface FaultControl {
  set(scac: string, fault: Fault): void;
  /** Clears one carrier's fault, or every fault when no SCAC is given. */
  clear(scac?: string): void;
  get(scac: string): Fault | undefined;
  list(): Record<string, Fault>;
}

const MODES: readonly FaultMode[] = [
  "down",
  "slow",
  "server-error",
  "malformed",
  "rate-limited",
  "bom",
  "relative-paging",
  "link-paging",
  "other-box",
  "push-late",
  "push-duplicate",
  "push-bad-signature",
  "subscriptions-refused",
];

/** Validates a fault from an admin request body; a string is the reason it was refused. */
export function parseFault(input: unknown): Fault | string {
  if (typeof input !== "object" || input === null) return "body must be a JSON object";
  const body = input as Record<string, unknown>;
  if (typeof body.mode !== "string" || !MODES.includes(body.mode as FaultMode)) {
    return `mode must be one of ${MODES.join(", ")}`;
  }
  const fault: Fault = { mode: body.mode as FaultMode };
  const integer = (
    name: "delayMs" | "retryAfterSeconds" | "status",
    min: number,
    max: number,
  ): string | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      return `${name} must be an integer from ${min} to ${max}`;
    }
    fault[name] = value;
    return undefined;
  };
  const problem =
    integer("delayMs", 0, body.mode === "push-late" ? 30 * 86_400_000 : 600_000) ??
    integer("retryAfterSeconds", 0, 86_400) ??
    integer("status", 500, 599);
  return problem ?? fault;
}

export function createFaultControl(
  normalize: (scac: string) => string = (scac) => scac.toUpperCase(),
): FaultControl {
  const faults = new Map<string, Fault>();
  return {
    set(scac, fault) {
      const parsed = parseFault(fault);
      if (typeof parsed === "string") throw new Error(`Invalid fault for ${scac}: ${parsed}`);
      faults.set(normalize(scac), parsed);
    },
    clear(scac) {
      if (scac === undefined) faults.clear();
      else faults.delete(normalize(scac));
    },
    get(scac) {
      return faults.get(normalize(scac));
    },
    list() {
      return Object.fromEntries(faults);
    },
  };
}

/**
 * Fault `other-box`: the events of a box query told about another box, the next serial of the same
 * owner prefix (every mention of the asked number: `equipmentReference` and the `EQ` references).
 */
export function answeredAboutAnotherBox(events: readonly DcsaEvent[], box: string): DcsaEvent[] {
  const parsed = parseContainerNumber(box);
  if (!parsed) return [...events];
  const other = containerNumber(parsed.prefix, (parsed.serial + 1) % 1_000_000);
  return JSON.parse(JSON.stringify(events).replaceAll(box, other)) as DcsaEvent[];
}
