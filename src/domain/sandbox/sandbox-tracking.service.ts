import { parseReference, type ReferenceType } from "../references/reference";
import {
  type Actor,
  type TrackInput,
  TrackingService,
  type TrackOutcome,
} from "../tracking/tracking.service";
import { RESERVED_REFERENCES, reservedReference, SANDBOX_OVERDUE_DAYS } from "./reserved-references";

/** What the sandbox's carrier failure says, as a real one would. */
const CARRIER_FAILURE_REASON = "the carrier answered 503 Service Unavailable";
const CARRIER_RETRY_AFTER_S = 60;

/**
 * The tracking engine of the sandbox world: the real one, except that the reserved references give
 * their production outcome. The facades render those outcomes exactly as they render live ones, so
 * the bodies are the production bodies by construction. (The not-found reference needs nothing
 * here: the sandbox's carrier simply has no record of it.)
 */
export class SandboxTrackingService extends TrackingService {
  /**
   * Billing past grace refuses a whole bulk request live (spec v1 section 4.1 rule 3), never one item:
   * the reserved payment-overdue reference anywhere in the batch answers that whole-request 402, as
   * the reserved 429 does. The slots-used reference stays that item's error, as a spent allowance is
   * live.
   */
  override async trackBatch(
    principal: Actor,
    items: readonly { reference: string; type: ReferenceType; carrier?: string }[],
  ): ReturnType<TrackingService["trackBatch"]> {
    if (items.some((item) => reservedReference(item.reference) === "paymentOverdue")) {
      return this.paymentOverdue(principal);
    }
    return super.trackBatch(principal, items);
  }

  private paymentOverdue(principal: Actor): Extract<TrackOutcome, { kind: "payment_overdue" }> {
    const org = principal.organization;
    return {
      kind: "payment_overdue",
      overdueDays: Math.max(SANDBOX_OVERDUE_DAYS, org.graceDays + 1),
      graceDays: org.graceDays,
      plan: org.plan,
    };
  }

  override async track(principal: Actor, input: TrackInput): Promise<TrackOutcome> {
    const org = principal.organization;
    switch (reservedReference(input.reference)) {
      case "malformed": {
        // The message a malformed container number gets, whichever type was asked.
        const parsed = parseReference(RESERVED_REFERENCES.malformed, "container");
        return {
          kind: "invalid_reference",
          referenceType: input.type ?? "container",
          reason: parsed.ok ? "malformed" : parsed.reason,
          message: parsed.ok ? "This is not a container or bill-of-lading number." : parsed.message,
        };
      }
      case "slotsUsed": {
        const usage = await this.deps.slots.usage(org);
        return {
          kind: "shipment_limit_reached",
          limit: usage.limit,
          used: usage.limit,
          cycleEnd: usage.cycleEnd,
        };
      }
      case "paymentOverdue":
        return this.paymentOverdue(principal);
      case "carrierFailure":
        return {
          kind: "carrier_down",
          referenceType: input.type ?? "container",
          scac: input.carrier?.toUpperCase() ?? this.deps.fallbackCarrier ?? "MAEU",
          failure: "error_answer",
          reason: CARRIER_FAILURE_REASON,
          retryAfterSeconds: CARRIER_RETRY_AFTER_S,
        };
      default:
        return super.track(principal, input);
    }
  }
}
