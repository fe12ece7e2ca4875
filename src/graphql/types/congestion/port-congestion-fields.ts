import { congestionAccess } from "../../../domain/congestion/congestion.service";
import { nextLocalMidnight } from "../../../domain/ports/local-midnight";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { PortRef } from "../ports/port";
import { RouteRef } from "../tracking/route";
import { PortCongestionRef, type PortCongestionView } from "./port-congestion";

/** A port's newest reading for a caller whose plan includes congestion; null otherwise or unscored. */
async function congestionOf(
  ctx: GraphQLContext,
  locode: string | null | undefined,
): Promise<PortCongestionView | null> {
  if (!locode || !ctx.principal || congestionAccess(ctx.principal).kind !== "on") return null;
  // The reading's window of days moves at UTC midnight (one clock read there, one here); a new
  // scoring drops kept answers by type (answersChanged({ types: ["PortCongestion"] })).
  answerValidUntil(nextLocalMidnight(ctx.services.clock.now(), null), 2);
  const outcome = await ctx.services.congestion.reading(locode);
  return outcome.kind === "scored" ? outcome.reading : null;
}

builder.objectField(PortRef, "congestion", (t) =>
  t.field({
    type: PortCongestionRef,
    nullable: true,
    description:
      "The port's newest congestion reading; null when it is not scored or the caller's plan does not include port congestion (or it is switched off).",
    resolve: (port, _args, ctx) => congestionOf(ctx, port.locode),
  }),
);

builder.objectField(RouteRef, "portOfDischargeCongestion", (t) =>
  t.field({
    type: PortCongestionRef,
    nullable: true,
    description:
      "The congestion reading of the shipment's port of discharge (what an arrival forecast can use); null when that port is not scored or the caller's plan does not include port congestion.",
    resolve: (doc, _args, ctx) =>
      congestionOf(ctx, doc.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode),
  }),
);
