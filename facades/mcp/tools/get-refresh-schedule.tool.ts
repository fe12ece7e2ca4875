import { z } from "zod";
import { McpRefreshScheduleDocument } from "../../generated/operations";
import { instant, notTracked, referenceArgument } from "../render/shipment";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  shipmentId: z.string(),
  reference: z.string(),
  status: z.string(),
  isActive: z.boolean().describe("Still moving: refreshed on schedule until delivered or cancelled"),
  failed: z.boolean().describe("No carrier has found it yet: carrier discovery applies instead of refreshes"),
  eta: instant,
  lastSyncedAt: instant.describe("When the carrier data was last refreshed"),
  refreshGapHours: z
    .number()
    .int()
    .describe(
      "The gap between refreshes that applies now: 4 hours from 48 hours before the ETA to 7 days after, else 12",
    ),
  nextRefreshEligibleAt: instant.describe(
    "lastSyncedAt plus the gap: when new carrier data may first be fetched; null when never synced or no longer moving",
  ),
  refreshEligibleNow: z.boolean().describe("The gap has elapsed and the shipment still moves"),
  scheduledRefreshAt: instant.describe(
    "When the service's refresh job will next ask the carrier (the gap plus up to 10% spread); null when not scheduled",
  ),
  discoveryStatus: z
    .string()
    .nullable()
    .describe("For a failed shipment: queued, running, recovered or exhausted"),
});

export const getRefreshSchedule = defineTool({
  name: "get_refresh_schedule",
  title: "Refresh schedule",
  description:
    "When one of your organisation's shipments was last refreshed from the carrier and when it will be again: the gap that applies (12 hours; 4 hours around arrival), when new data may be fetched, and when the service's own refresh is scheduled. Nothing is refreshed by asking.",
  input: z.object({ reference: referenceArgument }),
  output,
  async call({ reference }, context) {
    const result = await context.run(McpRefreshScheduleDocument, { reference });
    if (!result.ok) return refusalOf(result);
    const s = result.data.shipment;
    if (!s) return refusal("not_found", notTracked(reference));
    return answer({
      shipmentId: s.name,
      reference: s.reference,
      status: s.status,
      isActive: s.isActive,
      failed: s.failed,
      eta: s.eta,
      lastSyncedAt: s.lastSyncedAt,
      refreshGapHours: s.refreshGapHours,
      nextRefreshEligibleAt: s.nextRefreshEligibleAt,
      refreshEligibleNow: s.refreshEligibleNow,
      scheduledRefreshAt: s.scheduledRefreshAt,
      discoveryStatus: s.discoveryStatus,
    });
  },
});
