import { congestionAccess, type ReadingOutcome } from "../../../domain/congestion/congestion.service";
import { builder } from "../../builder";
import { FeatureDisabledRef } from "../shipments/feature-disabled";
import { PlanRequiredRef } from "../shipments/plan-required";
import { PortCongestionRef } from "./port-congestion";
import { PortNotFoundRef } from "./port-not-found";
import { PortNotScoredRef } from "./port-not-scored";

type Outcome = ReadingOutcome | { kind: "not-found"; locode: string } | ReturnType<typeof congestionAccess>;

const MEMBERS = {
  scored: PortCongestionRef,
  "not-scored": PortNotScoredRef,
  "not-found": PortNotFoundRef,
  plan_required: PlanRequiredRef,
  feature_disabled: FeatureDisabledRef,
} as const;

const PortCongestionOutcomeRef = builder.unionType("PortCongestionOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as Exclude<Outcome, { kind: "on" | "unknown-port" }>).kind],
});

builder.queryFields((t) => ({
  portCongestion: t.withAuth({ developerMode: true }).field({
    type: PortCongestionOutcomeRef,
    nullable: true,
    description:
      "One port's newest congestion reading with its 90-day history and components, by UN/LOCODE or carrier alias. A known port without signal is PortNotScored. Needs the port_congestion feature (plan, then switch). No upstream call.",
    args: { locode: t.arg.string({ required: true }) },
    resolve: async (_root, { locode }, ctx) => {
      const access = congestionAccess(ctx.principal);
      if (access.kind !== "on") return access;
      const outcome = await ctx.services.congestion.reading(locode.trim().toUpperCase());
      if (outcome.kind === "unknown-port") return { kind: "not-found" as const, locode };
      return outcome.kind === "scored" ? { ...outcome.reading, kind: "scored" as const } : outcome;
    },
  }),
}));
