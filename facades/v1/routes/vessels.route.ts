import { type FacadeDeps, runOperation } from "../../facade";
import { vesselQuery } from "../contract/routes";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";
import { type AllowanceView, sendLookupRefusal, setLookupHeaders } from "./lookups.route";

interface PositionView {
  imo: string | null;
  mmsi: string | null;
  name: string | null;
  lat: number;
  lon: number;
  speed: number | null;
  draught: number | null;
  courseOverGround: number | null;
  trueHeading: number | null;
  navigationStatus: string | null;
  timestamp: string;
  atd: string | null;
  eta: string | null;
  originPort: string | null;
  originLocode: string | null;
  destinationPort: string | null;
  destinationLocode: string | null;
}

type VesselTrackData = {
  vesselPosition:
    | { __typename: "VesselTrack"; cached: boolean; position: PositionView; allowance: AllowanceView | null }
    | { __typename: "VesselNotFound"; imo: string; mmsi: string; allowance: AllowanceView }
    | { __typename: "LookupLimitExceeded"; message: string; allowance: AllowanceView }
    | {
        __typename: "LookupProviderUnavailable";
        reason: string;
        retryAfterSeconds: number;
        allowance: AllowanceView;
      }
    | { __typename: "LookupInputInvalid"; param: string; message: string }
    | null;
};

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
  atd: p.atd,
  eta: p.eta,
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
  api.on("vesselTrack", async (req, res) => {
    const query = vesselQuery.safeParse(req.query);
    if (!query.success) {
      const issue = query.error.issues[0]!;
      return sendV1Error(res, "bad_request", {
        message: issue.message,
        data: { param: String(issue.path[0]) },
      });
    }
    const result = await runOperation<VesselTrackData>(deps, req, "VesselTrack", query.data);
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.vesselPosition!;
    if (sendLookupRefusal(res, answer)) return;
    switch (answer.__typename) {
      case "VesselNotFound":
        setLookupHeaders(res, answer.allowance);
        return sendV1Error(res, "vessel_not_found", { data: { imo: answer.imo, mmsi: answer.mmsi } });
      case "VesselTrack":
        setLookupHeaders(res, answer.allowance);
        res.json({ success: true, data: renderPosition(answer.position, answer.cached) });
    }
  });
}
