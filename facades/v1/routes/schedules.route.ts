import type { FacadeDeps, Member } from "../../facade";
import { SailingSchedulesDocument, type SailingSchedulesQuery } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";
import { sendLookupRefusal, setLookupHeaders } from "./lookups.route";

type ItemView = Member<SailingSchedulesQuery["sailingSchedules"], "SailingSchedules">["items"][number];
type EndpointView = ItemView["origin"];

const renderEndpoint = (e: EndpointView) => ({
  locode: e.locode,
  name: e.name,
  country_code: e.countryCode,
  terminal: e.terminal,
  terminal_code: e.terminalCode,
});

/** The schedule item of spec v1 section 2.7. */
export const renderScheduleItem = (s: ItemView) => ({
  sealine: s.sealine,
  sealine_name: s.sealineName,
  service_name: s.serviceName,
  voyage: s.voyage,
  vessel: { name: s.vessel?.name ?? null, imo: s.vessel?.imo ?? null },
  origin: renderEndpoint(s.origin),
  destination: renderEndpoint(s.destination),
  departure_date: s.departureDate,
  departure_date_utc: s.origin.at,
  arrival_date: s.arrivalDate,
  arrival_date_utc: s.destination.at,
  duration: s.duration,
  transit_type: s.transitType,
});

/** GET /voyage/schedules (spec v1 section 4, rule 12). */
export function mountScheduleRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("schedules", async (req, res, { query: q }) => {
    const result = await deps.run(req, SailingSchedulesDocument, {
      origin: q.origin,
      destination: q.destination,
      date: q.date,
      // Absent parameters stay absent: the core applies its defaults (one week of departures).
      weekRange: q.week_range === undefined ? undefined : Number(q.week_range),
      dateType: q.date_type,
    });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.sailingSchedules!;
    if (sendLookupRefusal(res, "SailingSchedulesOutcome", answer)) return;
    switch (answer.__typename) {
      case "SailingSchedules":
        setLookupHeaders(res, answer.allowance);
        res.json({
          success: true,
          total: answer.total,
          cached: answer.cached,
          ...(answer.carriersUnavailable.length > 0
            ? { carriers_unavailable: answer.carriersUnavailable }
            : {}),
          data: answer.items.map(renderScheduleItem),
        });
    }
  });
}
