import { z } from "zod";
import type { DiscoveryBarrier } from "../../../domain/shipments/carrier-discovery";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { DiscoveryIneligibilityEnum } from "./discovery-ineligibility";

const RetryFailedResultRef = builder
  .objectRef<{
    examined: number;
    queued: number;
    skipped: number;
    skippedReason: DiscoveryBarrier | null;
    retryAfterSeconds: number | null;
  }>("RetryFailedResult")
  .implement({
    fields: (f) => ({
      examined: f.exposeInt("examined", { description: "Failed shipments of the last 7 days that matched." }),
      queued: f.exposeInt("queued", { description: "Discovery jobs started." }),
      skipped: f.exposeInt("skipped", {
        description: "Matched but not queued: carrier discovery is not on for the organisation.",
      }),
      skippedReason: f.field({
        type: DiscoveryIneligibilityEnum,
        nullable: true,
        description: "Why the skipped ones were not queued (plan or disabled); null when none was skipped.",
        resolve: (r) => r.skippedReason,
      }),
      retryAfterSeconds: f.exposeInt("retryAfterSeconds", {
        nullable: true,
        description: "Set when called again within 15 minutes of the last call.",
      }),
    }),
  });

builder.mutationFields((t) => ({
  retryFailedShipments: t.withAuth(WRITE_SCOPES).field({
    type: RetryFailedResultRef,
    nullable: true,
    description:
      "Retries carrier discovery for shipments that failed in the last 7 days (at most 200; once per 15 minutes).",
    args: {
      shipmentIds: t.arg.stringList({ required: false, validate: z.array(z.string().max(100)).max(1000) }),
    },
    resolve: async (_r, { shipmentIds }, ctx) => {
      const result = await ctx.services.background.queueRetryFailed(ctx.principal, shipmentIds ?? undefined);
      if (result.kind === "too_soon") {
        return {
          examined: 0,
          queued: 0,
          skipped: 0,
          skippedReason: null,
          retryAfterSeconds: result.retryAfterSeconds,
        };
      }
      return { ...result, retryAfterSeconds: null };
    },
  }),
}));
