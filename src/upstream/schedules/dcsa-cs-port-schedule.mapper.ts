/**
 * DCSA Commercial Schedules 1.0 `PortSchedule` objects to the proforma calls of a port. Pure. A port
 * schedule lists the vessels calling the port on the date asked (`Schedule`: its service partners with
 * their voyage numbers, the vessel, the timestamps); the proforma arrival is the `ARRI` timestamp classified `PLN`
 * (an `EST` or `ACT` one is an estimate or the fact, not the schedule). A vessel schedule that cannot be
 * read is skipped, not the whole answer: one odd entry must not hide the others.
 */
import { z } from "zod";
import type { ScheduledPortCall } from "../../domain/schedules/schedule-source";

const timestampSchema = z
  .object({
    eventTypeCode: z.string(),
    eventClassifierCode: z.string(),
    eventDateTime: z.string(),
  })
  .loose();

const vesselScheduleSchema = z
  .object({
    vessel: z
      .object({ vesselIMONumber: z.string().optional(), name: z.string().optional() })
      .loose()
      .optional(),
    // Read too: some carriers flatten the vessel into the schedule.
    vesselIMONumber: z.string().optional(),
    vesselName: z.string().optional(),
    servicePartners: z
      .array(
        z
          .object({
            carrierCode: z.string().optional(),
            carrierImportVoyageNumber: z.string().optional(),
            carrierExportVoyageNumber: z.string().optional(),
          })
          .loose(),
      )
      .optional(),
    timestamps: z.array(z.unknown()).optional(),
  })
  .loose();

const portScheduleSchema = z
  .object({
    location: z.object({ UNLocationCode: z.string().optional() }).loose().optional(),
    vesselSchedules: z.array(z.unknown()).optional(),
  })
  .loose();

/**
 * The calls at `locode` in a port-schedules answer. `scac`: the carrier asked; when a call lists that
 * carrier among its service partners its voyage numbers are taken, else every partner's (a vessel
 * shared in an alliance carries each partner's numbers).
 */
export function mapPortSchedules(
  body: unknown,
  context: { scac: string; locode: string },
): ScheduledPortCall[] {
  if (!Array.isArray(body)) return [];
  const calls: ScheduledPortCall[] = [];
  for (const raw of body) {
    const schedule = portScheduleSchema.safeParse(raw);
    if (!schedule.success) continue;
    const at = schedule.data.location?.UNLocationCode?.toUpperCase();
    if (at && at !== context.locode.toUpperCase()) continue;
    for (const rawVessel of schedule.data.vesselSchedules ?? []) {
      const vessel = vesselScheduleSchema.safeParse(rawVessel);
      if (!vessel.success) continue;
      const partners = vessel.data.servicePartners ?? [];
      const own = partners.filter((p) => p.carrierCode?.toUpperCase() === context.scac.toUpperCase());
      const voyages = [
        ...new Set(
          (own.length > 0 ? own : partners).flatMap((p) =>
            [p.carrierImportVoyageNumber, p.carrierExportVoyageNumber].filter(
              (v): v is string => typeof v === "string" && v.trim() !== "",
            ),
          ),
        ),
      ];
      let plannedArrival: string | null = null;
      for (const rawStamp of vessel.data.timestamps ?? []) {
        const stamp = timestampSchema.safeParse(rawStamp);
        if (!stamp.success) continue;
        if (stamp.data.eventTypeCode !== "ARRI" || stamp.data.eventClassifierCode !== "PLN") continue;
        const instant = Date.parse(stamp.data.eventDateTime);
        if (!Number.isNaN(instant)) plannedArrival = new Date(instant).toISOString();
      }
      calls.push({
        vesselImo: (vessel.data.vessel?.vesselIMONumber ?? vessel.data.vesselIMONumber)?.trim() || null,
        vesselName: vessel.data.vessel?.name ?? vessel.data.vesselName ?? null,
        voyages,
        plannedArrival,
      });
    }
  }
  return calls;
}
