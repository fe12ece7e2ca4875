import { z } from "zod";
import { McpCarrierSupportDocument } from "../../generated/operations";
import { answer, defineTool, refusalOf } from "../tool";

const output = z.object({
  query: z.string(),
  supported: z
    .boolean()
    .describe(
      "A carrier of the directory matches and tracking with it is neither disabled nor unconnected on this service",
    ),
  carriers: z
    .array(
      z.object({
        scac: z.string().describe("Main SCAC, e.g. MAEU"),
        scacCodes: z.array(z.string()).describe("Every code it is known by, the main SCAC first"),
        name: z.string(),
        status: z
          .enum(["active", "maintenance", "disabled", "not_connected"])
          .describe(
            "active; maintenance (temporarily not asked); disabled (switched off by the operator); not_connected (this deployment has no connection to the carrier: not supported here)",
          ),
        referenceTypes: z
          .array(z.string())
          .describe(
            "What it tracks: container, bl and/or booking (a booking alone, e.g. HMM, is tracked as <booking>/<container>)",
          ),
        dcsa: z.boolean().describe("Publishes a DCSA Track & Trace API"),
      }),
    )
    .describe("Matching carriers, exact SCAC or name matches first, then by size"),
});

export const checkCarrierSupport = defineTool({
  name: "check_carrier_support",
  title: "Check carrier support",
  description:
    "Whether Quayside tracks a shipping line, by SCAC or name: the matching carriers of the directory, their codes, what they track (container, bill of lading, booking) and whether tracking with them is active, under maintenance or disabled.",
  input: z.object({
    carrier: z
      .string()
      .trim()
      .min(2, "at least 2 characters")
      .max(100)
      .describe("SCAC, e.g. MAEU, or part of a carrier's name, e.g. Hapag"),
  }),
  output,
  async call({ carrier }, context) {
    const result = await context.run(McpCarrierSupportDocument, { search: carrier });
    if (!result.ok) return refusalOf(result);
    const found = result.data.carriers!;
    return answer({
      query: carrier,
      supported: found.some((c) => c.tracked),
      carriers: found.map((c) => ({
        scac: c.scac,
        scacCodes: c.scacCodes,
        name: c.name,
        status: c.status,
        referenceTypes: c.supportedTypes,
        dcsa: c.dcsa,
      })),
    });
  },
});
