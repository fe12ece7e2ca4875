import { type BoardItem, congestionAccess } from "../../../domain/congestion/congestion.service";
import type { PlanCode } from "../../../generated/prisma/enums";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { FeatureDisabledRef } from "../shipments/feature-disabled";
import { PlanRequiredRef } from "../shipments/plan-required";
import { PortCongestionRef } from "./port-congestion";

/** Watched ports: the 60 largest container ports and a deployment's extras. */
const BOARD_SIZE = 200;

const PortCongestionBoardRef = builder.objectRef<{ items: BoardItem[] }>("PortCongestionBoard").implement({
  description: "Every scored port's newest reading, most congested first.",
  fields: (t) => ({
    total: t.int({ resolve: (r) => r.items.length }),
    items: t.field({ type: [PortCongestionRef], extensions: LIST_SIZE(BOARD_SIZE), resolve: (r) => r.items }),
  }),
});

type BoardOutcome =
  | { kind: "board"; items: BoardItem[] }
  | { kind: "plan_required"; feature: "port_congestion"; minPlan: PlanCode }
  | { kind: "feature_disabled"; feature: "port_congestion" };

const MEMBERS = {
  board: PortCongestionBoardRef,
  plan_required: PlanRequiredRef,
  feature_disabled: FeatureDisabledRef,
} as const;

const PortCongestionBoardOutcomeRef = builder.unionType("PortCongestionBoardOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as BoardOutcome).kind],
});

builder.queryFields((t) => ({
  portCongestionBoard: t.withAuth({ developerMode: true }).field({
    type: PortCongestionBoardOutcomeRef,
    nullable: true,
    description:
      "The congestion board: every scored port's newest reading. Needs the port_congestion feature (plan, then switch). No upstream call.",
    resolve: async (_root, _args, ctx): Promise<BoardOutcome> => {
      const access = congestionAccess(ctx.principal);
      if (access.kind !== "on") return access;
      return { kind: "board", items: await ctx.services.congestion.board() };
    },
  }),
}));
