import {
  type ManualRefreshOutcome,
  type RefreshRefusal,
  refreshShipmentNow,
} from "../../../domain/shipments/manual-refresh";
import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { TRACK_RESULT_MEMBERS } from "../tracking/track-result";
import { ShipmentNotFoundRef } from "./shipment-not-found";

const RefreshRefusalReasonEnum = builder.enumType("RefreshRefusalReason", {
  description:
    "too_soon: the refresh gap since the carrier's last answer has not elapsed (12 hours; 4 from 48 hours before the ETA until 7 days after it); not_moving: delivered or cancelled, nothing more to ask; never_found: no carrier has found the reference yet, so there is nothing to refresh.",
  values: ["too_soon", "not_moving", "never_found"] as const,
});

const EXPLANATION: Record<RefreshRefusal["reason"], string> = {
  too_soon:
    "The carrier answered for this shipment less than one refresh gap ago; ask again once it has passed.",
  not_moving: "The shipment is delivered or cancelled: the carrier has nothing more to say about it.",
  never_found:
    "No carrier has found this reference yet, so there is nothing to refresh: correct the number or the carrier, or wait for the carrier search.",
};

type Refused = Extract<ManualRefreshOutcome, { kind: "refused" }>;

export const RefreshNotAllowedRef = builder.objectRef<Refused>("RefreshNotAllowed").implement({
  description: "A manual refresh the contract's refresh limits do not allow now; nothing was asked.",
  fields: (t) => ({
    reason: t.field({ type: RefreshRefusalReasonEnum, resolve: (r) => r.reason }),
    nextRefreshEligibleAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "From when a refresh is allowed (too_soon only).",
      resolve: (r) => r.nextRefreshEligibleAt,
    }),
    retryAfterSeconds: t.int({
      nullable: true,
      description: "Seconds until then, rounded up (too_soon only).",
      resolve: (r) => r.retryAfterSeconds,
    }),
    explanation: t.string({ description: "Why, in plain words.", resolve: (r) => EXPLANATION[r.reason] }),
  }),
});

const RefreshShipmentResultRef = builder.unionType("RefreshShipmentResult", {
  description:
    "Every way a manual refresh ends: the carrier's new answer (TrackSuccess), a refusal of the refresh limits, or a tracking failure.",
  types: [RefreshNotAllowedRef, ShipmentNotFoundRef, ...Object.values(TRACK_RESULT_MEMBERS)],
  resolveType: (v) => {
    const value = v as { __refresh?: "refused" | "not_found" };
    if (value.__refresh === "refused") return RefreshNotAllowedRef;
    if (value.__refresh === "not_found") return ShipmentNotFoundRef;
    return TRACK_RESULT_MEMBERS[(v as TrackOutcome).kind];
  },
});

builder.mutationFields((t) => ({
  refreshShipment: t.withAuth(WRITE_SCOPES).field({
    type: RefreshShipmentResultRef,
    nullable: true,
    description:
      "Asks the carrier again now for one of the organisation's shipments (a teammate's included), within the refresh limits: once the refresh gap since the last answer has elapsed (the shipment's refreshEligibleNow) and while it still moves. Uses no slot.",
    args: { id: t.arg.string({ required: true, description: "SHP id or the shipment's reference." }) },
    resolve: async (_r, { id }, ctx) => {
      const { clock, tracking, shipments } = ctx.services;
      const result = await refreshShipmentNow(
        { clock, tracking, find: (principal, key) => shipments.find(principal, key) },
        ctx.principal,
        id,
        ctx.surface === "job" ? "graphql" : ctx.surface,
      );
      // Refusals carry their member name: a tracking outcome's `kind` may read the same.
      if (result.kind === "not_found") return Object.assign({ id: result.id }, { __refresh: "not_found" });
      if (result.kind === "refused") return Object.assign(result, { __refresh: "refused" });
      return result.outcome;
    },
  }),
}));
