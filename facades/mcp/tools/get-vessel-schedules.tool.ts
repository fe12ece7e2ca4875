import { z } from "zod";
import { outcomeOf } from "../../../src/http/outcomes";
import { type EndpointFragment, McpVesselSchedulesDocument } from "../../generated/operations";
import { allowanceShape, renderAllowance } from "../render/lookups";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const locode = (example: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}[A-Za-z2-9]{3}$/, "a UN/LOCODE: 2 letters of country and 3 of place")
    .transform((v) => v.toUpperCase())
    .describe(`UN/LOCODE of the port, e.g. ${example}`);

const endpoint = z.object({
  locode: z.string().nullable(),
  name: z.string().nullable(),
  countryCode: z.string().nullable(),
  terminal: z.string().nullable(),
  local: z.string().nullable().describe("Local time at the port, YYYY-MM-DD HH:MM:SS"),
  utcOffset: z
    .string()
    .nullable()
    .describe("The clock `local` is on: its offset from UTC then, e.g. +01:00; null when `local` is null"),
  at: z.string().nullable().describe("ISO 8601 instant in UTC"),
});

const output = z.object({
  origin: z.string(),
  destination: z.string(),
  date: z.string(),
  weeks: z.number().int(),
  total: z.number().int(),
  cached: z.boolean().describe("Served from the 30-minute cache: cost nothing"),
  sailings: z.array(
    z.object({
      carrier: z.object({ scac: z.string(), name: z.string() }),
      serviceName: z.string().nullable(),
      voyage: z.string().nullable(),
      vessel: z.object({ name: z.string().nullable(), imo: z.string().nullable() }).nullable(),
      departure: endpoint,
      arrival: endpoint,
      transitDays: z.number().int(),
      transitType: z.string().describe("transshipment when the cargo changes ship, else unspecified"),
      transshipmentPorts: z.array(z.string()),
    }),
  ),
  carriersAsked: z.array(z.string()),
  carriersUnavailable: z.array(z.string()).describe("Carriers whose schedules could not be read now"),
  allowance: allowanceShape,
});

const renderEndpoint = (e: EndpointFragment) => ({
  locode: e.locode,
  name: e.name,
  countryCode: e.countryCode,
  terminal: e.terminal,
  local: e.localDateTime,
  utcOffset: e.utcOffset,
  at: e.at,
});

export const getVesselSchedules = defineTool({
  name: "get_vessel_schedules",
  title: "Sailing schedules",
  description:
    "Carriers' sailings between two ports (point-to-point schedules): carrier, service, vessel, voyage, departure and arrival times, transit days and transshipments, departing from a date over 1 to 6 weeks. Each answer not served from the 30-minute cache spends one lookup of the key's daily vessel-and-schedule allowance, the same one the REST /voyage/schedules spends.",
  input: z.object({
    origin: locode("CNSHA"),
    destination: locode("NLRTM"),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
      .describe("First departure day, YYYY-MM-DD, e.g. 2026-12-01"),
    weeks: z
      .number()
      .int()
      .min(1)
      .max(6)
      .optional()
      .describe("Weeks of departures from the date, 1 to 6 (default 1)"),
  }),
  output,
  openWorld: true,
  async call({ origin, destination, date, weeks }, context) {
    const result = await context.run(McpVesselSchedulesDocument, {
      origin,
      destination,
      date,
      weekRange: weeks,
    });
    if (!result.ok) return refusalOf(result);
    const found = result.data.sailingSchedules;
    switch (found?.__typename) {
      case "LookupInputInvalid":
        return refusal(outcomeOf("SailingSchedulesOutcome", found), found.message);
      case "LookupLimitExceeded":
        return refusal(
          outcomeOf("SailingSchedulesOutcome", found),
          `${found.message} It resets at ${found.allowance?.resetAt}; answers from the 30-minute cache stay free.`,
        );
      case "LookupProviderUnavailable":
        return refusal(outcomeOf("SailingSchedulesOutcome", found));
      case "SailingSchedules":
        return answer({
          origin,
          destination,
          date,
          weeks: found.weekRange,
          total: found.total,
          cached: found.cached,
          sailings: found.items.map((s) => ({
            carrier: { scac: s.sealine, name: s.sealineName },
            serviceName: s.serviceName,
            voyage: s.voyage,
            vessel: s.vessel,
            departure: renderEndpoint(s.origin),
            arrival: renderEndpoint(s.destination),
            transitDays: s.duration,
            transitType: s.transitType,
            transshipmentPorts: s.transshipmentPorts,
          })),
          carriersAsked: found.carriersAsked,
          carriersUnavailable: found.carriersUnavailable,
          allowance: renderAllowance(found.allowance),
        });
      default:
        return refusal("unexpected");
    }
  },
});
