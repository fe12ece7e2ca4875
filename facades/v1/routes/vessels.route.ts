import { outcomeOf } from "../../../src/http/outcomes";
import type { FacadeDeps, Member } from "../../facade";
import { VesselTrackDocument, type VesselTrackQuery } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";
import { sendLookupRefusal, setLookupHeaders } from "./lookups.route";

type PositionView = Member<VesselTrackQuery["vesselPosition"], "VesselTrack">["position"];

/** The vessel position of spec v1 section 2.6. */
export const renderPosition = (p: PositionView, cached: boolean) => ({
  lat: p.lat,
  lon: p.lon,
  speed: p.speed,
  draught: p.draught,
  course_over_ground: p.courseOverGround,
  true_heading: p.trueHeading,
  navigation_status: p.navigationStatus,
  timestamp: p.timestamp,
  timestamp_utc: p.positionAt,
  atd: p.atd,
  atd_utc: p.atd ? (p.lastPortCall?.at ?? null) : null,
  eta: p.eta,
  eta_utc: p.eta ? (p.nextPortCall?.at ?? null) : null,
  origin_port: p.originPort,
  origin_locode: p.originLocode,
  destination_port: p.destinationPort,
  destination_locode: p.destinationLocode,
  imo: p.imo,
  mmsi: p.mmsi,
  name: p.name,
  cached,
});

/** GET /vessel/track?imo=&mmsi= (spec v1 section 4, rule 12). */
export function mountVesselRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("vesselTrack", async (req, res, { query }) => {
    const result = await deps.run(req, VesselTrackDocument, query);
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.vesselPosition!;
    if (sendLookupRefusal(res, "VesselTrackOutcome", answer)) return;
    switch (answer.__typename) {
      case "VesselNotFound":
        setLookupHeaders(res, answer.allowance);
        return sendV1Error(res, outcomeOf("VesselTrackOutcome", answer), {
          data: { imo: answer.imo, mmsi: answer.mmsi },
        });
      case "VesselTrack":
        setLookupHeaders(res, answer.allowance);
        res.json({ success: true, data: renderPosition(answer.position, answer.cached) });
    }
  });
}
