import { z } from "zod";
import { outcomeOf } from "../../../src/http/outcomes";
import type { Member } from "../../facade";
import {
  type AllowanceFragment,
  McpVesselTrackDocument,
  type McpVesselTrackQuery,
  type PortCallFragment,
} from "../../generated/operations";
import { allowanceShape, renderAllowance } from "../render/lookups";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const portCall = (what: string) =>
  z
    .object({
      locode: z.string().nullable().describe("UN/LOCODE of the port, e.g. NLRTM; null when unknown"),
      name: z.string().nullable().describe("The port's name, or the destination text the crew typed (AIS)"),
      countryCode: z.string().nullable().describe("ISO 3166-1 alpha-2"),
      at: z.string().nullable().describe(`${what}, ISO 8601 instant in UTC`),
      local: z
        .string()
        .nullable()
        .describe(`The same moment as local time at the port, YYYY-MM-DD HH:MM:SS; null when unknown`),
      utcOffset: z
        .string()
        .nullable()
        .describe(
          "The clock `local` is on: its offset from UTC then, e.g. +01:00; null when `local` is null",
        ),
    })
    .nullable();

const output = z.object({
  query: z.string().describe("The vessel asked, as given"),
  matchedBy: z.enum(["imo", "name"]).describe("Whether the vessel was looked up by IMO number or by name"),
  vessel: z.object({
    name: z.string().nullable(),
    imo: z.string().nullable().describe("IMO number, 7 digits"),
    mmsi: z.string().nullable().describe("MMSI, 9 digits"),
  }),
  position: z.object({
    lat: z.number(),
    lon: z.number(),
    speed: z.number().nullable().describe("Speed over ground, knots"),
    courseOverGround: z.number().nullable().describe("Degrees"),
    trueHeading: z.number().nullable().describe("Degrees"),
    draught: z.number().nullable().describe("Metres"),
    navigationStatus: z
      .string()
      .nullable()
      .describe("AIS navigational status, e.g. Under way using engine, Moored, At anchor"),
    reportedAt: z.string().describe("When the position was reported, ISO 8601 instant in UTC"),
  }),
  lastPort: portCall("Departure (ATD)").describe(
    "The last port left; null when the source does not say (AIS)",
  ),
  nextPort: portCall("Estimated arrival (ETA)").describe(
    "The port the vessel is bound for; null when unknown",
  ),
  source: z
    .string()
    .describe(
      "Where the position comes from: ais (the AIS feed this service ingests) or simulator (demo world)",
    ),
  cached: z.boolean().describe("Served from the 5-minute cache: cost nothing"),
  allowance: allowanceShape,
});

type VesselData = Member<McpVesselTrackQuery["vesselPosition"], "VesselAmbiguous">["candidates"][number];

const renderPortCall = (c: PortCallFragment | null) =>
  c
    ? {
        locode: c.locode,
        name: c.name,
        countryCode: c.port?.countryCode ?? null,
        at: c.at,
        local: c.localDateTime,
        utcOffset: c.utcOffset,
      }
    : null;

const spent = (a: AllowanceFragment | null) =>
  a ? ` The lookup counted against the daily allowance: ${a.remaining} of ${a.limit} left.` : "";

const identity = (v: VesselData) =>
  `${v.name ?? "(no name)"} (${[v.imo ? `IMO ${v.imo}` : null, v.mmsi ? `MMSI ${v.mmsi}` : null]
    .filter(Boolean)
    .join(", ")})`;

export const trackVessel = defineTool({
  name: "track_vessel",
  title: "Vessel position",
  description:
    "Where a vessel is now, by name or IMO number: latitude and longitude, speed, course, heading, draught, navigational status, the last port left (ATD) and the port it is bound for (ETA). A name is matched whole, ignoring case, accents and punctuation; when several vessels bear it, the answer lists them to ask again by IMO number. Each answer not served from the 5-minute cache spends one lookup of the key's daily vessel-and-schedule allowance, the same one the REST /vessel/track and get_vessel_schedules spend.",
  input: z.object({
    vessel: z
      .string()
      .trim()
      .min(2, "a vessel name or IMO number of at least 2 characters")
      .max(100, "a vessel name or IMO number of at most 100 characters")
      .describe("Vessel name or IMO number (7 digits), e.g. EVER GIVEN or 9811000"),
  }),
  output,
  openWorld: true,
  async call({ vessel }, context) {
    // The core reads the text as an IMO number or a name (and refuses any other number).
    const result = await context.run(McpVesselTrackDocument, { vessel });
    if (!result.ok) return refusalOf(result);
    const found = result.data.vesselPosition;
    switch (found?.__typename) {
      case "LookupInputInvalid":
        return refusal(outcomeOf("VesselTrackOutcome", found), found.message);
      case "LookupLimitExceeded":
        return refusal(
          outcomeOf("VesselTrackOutcome", found),
          `${found.message} It resets at ${found.allowance?.resetAt}; answers from the 5-minute cache stay free.`,
        );
      case "LookupProviderUnavailable":
        return refusal(outcomeOf("VesselTrackOutcome", found));
      case "VesselNotFound":
        return refusal(
          outcomeOf("VesselTrackOutcome", found),
          (found.imo
            ? `No position source knows a vessel with IMO number ${found.imo}.`
            : `No position source knows a vessel named "${vessel}". Names are matched whole (e.g. EVER GIVEN, not EVER); try the IMO number.`) +
            spent(found.allowance),
        );
      case "VesselAmbiguous":
        return refusal(
          outcomeOf("VesselTrackOutcome", found),
          `Several vessels are named "${vessel}": ${found.candidates.map(identity).join("; ")}. Ask again with the IMO number of the one meant.${spent(found.allowance)}`,
        );
      case "VesselTrack": {
        const p = found.position;
        return answer({
          query: vessel,
          matchedBy: found.matchedBy,
          vessel: { name: p.name, imo: p.imo, mmsi: p.mmsi },
          position: {
            lat: p.lat,
            lon: p.lon,
            speed: p.speed,
            courseOverGround: p.courseOverGround,
            trueHeading: p.trueHeading,
            draught: p.draught,
            navigationStatus: p.navigationStatus,
            reportedAt: p.positionAt,
          },
          lastPort: renderPortCall(p.lastPortCall),
          nextPort: renderPortCall(p.nextPortCall),
          source: p.source,
          cached: found.cached,
          allowance: renderAllowance(found.allowance),
        });
      }
      default:
        return refusal("unexpected");
    }
  },
});
