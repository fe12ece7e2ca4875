import {
  completable,
  type GetPromptResult,
  type McpServer,
  ProtocolError,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { completeCarrier, completeDisruption, completeReference } from "../completions";
import { toolData } from "../data";
import { RESOURCE_TEMPLATES, shipmentUri } from "../resources/resources";
import type { McpTool, ToolContext } from "../tool";
import { getDisruptionDetail } from "../tools/get-disruption-detail.tool";
import { getDndStatus } from "../tools/get-dnd-status.tool";
import { getRouteNews } from "../tools/get-route-news.tool";
import { getShipmentStatus } from "../tools/get-shipment-status.tool";
import { listMyShipments } from "../tools/list-my-shipments.tool";

const JSON_TYPE = "application/json";
/** Active shipments a morning's review looks at: the newest this many. */
const MORNING_SHIPMENTS = 100;

type Optional<T> = { ok: true; data: T } | { ok: false; reason: string };

/** A tool's answer, or why there is none (a plan without it, the feature switched off). */
async function optional<T>(
  tool: McpTool,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<Optional<T>> {
  try {
    return { ok: true, data: await toolData<T>(tool, args, context) };
  } catch (error) {
    if (error instanceof ProtocolError) return { ok: false, reason: error.message };
    throw error;
  }
}

const json = (value: unknown) => JSON.stringify(value);
const text = (value: string): GetPromptResult["messages"][number] => ({
  role: "user",
  content: { type: "text", text: value },
});
const attached = (uri: string, data: unknown): GetPromptResult["messages"][number] => ({
  role: "user",
  content: { type: "resource", resource: { uri, mimeType: JSON_TYPE, text: json(data) } },
});
const uriFor = (template: string, variable: string, value: string) =>
  RESOURCE_TEMPLATES.find((t) => t.name === template)!.uriTemplate.replace(
    `{${variable}}`,
    encodeURIComponent(value),
  );

interface Summary {
  reference: string;
  status: string;
  origin: string | null;
  destination: string | null;
  eta: string | null;
  isDelayed: boolean | null;
  failed: boolean;
  carrier: { scac: string; name: string } | null;
  customer: string | null;
  lastSyncedAt: string | null;
}

/**
 * Ready prompts, each built from the tools' own answers (the same calls, as the same principal): the
 * assistant gets the facts as attached JSON and a question about them, never data a tool would not
 * give. Data the plan does not include is said to be unavailable, with the tool's sentence, rather
 * than failing the whole prompt.
 */
export function registerPrompts(server: McpServer, context: ToolContext): void {
  server.registerPrompt(
    "morning_exceptions",
    {
      title: "This morning's exceptions",
      description:
        "Reviews your active shipments for what needs attention today: delayed, not found by any carrier, or touched by an active disruption. Optionally for one carrier.",
      argsSchema: z.object({
        // Optional outside `completable`: the SDK looks for the completer under the optional wrapper.
        carrier: completable(
          z.string().trim().max(4).describe("Only this carrier's shipments: a SCAC, e.g. MAEU"),
          completeCarrier(context),
        )
          .optional()
          .describe("Only this carrier's shipments: a SCAC, e.g. MAEU"),
      }),
    },
    async ({ carrier }) => {
      const scac = carrier ? carrier.toUpperCase() : undefined;
      const page = await toolData<{ total: number; shipments: Summary[] }>(
        listMyShipments,
        { filter: { active: true, ...(scac ? { carrier: scac } : {}) }, pageSize: MORNING_SHIPMENTS },
        context,
      );
      const exceptions = page.shipments.filter((s) => s.isDelayed || s.failed);
      const news = await optional<{ total: number; items: unknown[] }>(getRouteNews, { mine: true }, context);
      const scope = scac ? `carrier ${scac}'s` : "my";
      return {
        description: `Exceptions across ${scope} ${page.total} active shipments`,
        messages: [
          text(
            [
              `Give me this morning's exceptions across ${scope} active shipments (${page.total} in all; the newest ${page.shipments.length} were checked).`,
              "List first the shipments that are delayed or that no carrier has found, each with its reference, route, ETA and what to do next; then the disruptions that touch my shipments and which of them to watch.",
              "Keep it short, most urgent first; say plainly when there is nothing to report.",
              `Delayed or not found (${exceptions.length}): ${json(exceptions)}`,
              news.ok
                ? `Active disruptions touching my shipments (${news.data.total}): ${json(news.data.items)}`
                : `Disruptions are not available: ${news.reason}`,
            ].join("\n\n"),
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    "shipment_delay_cost",
    {
      title: "Why is this shipment late, and what does it cost me?",
      description:
        "Explains one shipment's delay from its status, its last and next events and the disruptions on its route, and what it costs in demurrage and detention.",
      argsSchema: z.object({
        reference: completable(
          z.string().trim().min(1).max(100).describe("Container number, bill of lading, booking or SHP id"),
          completeReference(context),
        ),
      }),
    },
    async ({ reference }) => {
      const status = await toolData<{ reference: string }>(getShipmentStatus, { reference }, context);
      const [dnd, news] = await Promise.all([
        optional(getDndStatus, { reference }, context),
        optional<{ items: unknown[] }>(getRouteNews, { reference }, context),
      ]);
      return {
        description: `Delay and cost of ${status.reference}`,
        messages: [
          attached(shipmentUri(status.reference), status),
          text(
            [
              `Why is shipment ${status.reference} late (or is it?), and what does the delay cost me?`,
              "Use the attached shipment (its ETA against the first one, its last and next events, the predicted arrival), the disruptions on its route and the demurrage and detention clocks below. Name the cause when the data shows one and say when it does not; give the cost so far and the projected cost with its currency, and the last free day.",
              dnd.ok
                ? `Demurrage and detention: ${json(dnd.data)}`
                : `Demurrage and detention are not available: ${dnd.reason}`,
              news.ok
                ? `Disruptions on its route: ${json(news.data.items)}`
                : `Disruptions are not available: ${news.reason}`,
            ].join("\n\n"),
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    "disruption_impact",
    {
      title: "Which of my shipments does this disruption touch?",
      description:
        "Tells which of your active shipments a disruption touches (from get_route_news or the disruption resource) and what to do about each.",
      argsSchema: z.object({
        id: completable(
          z.string().trim().min(1).max(100).describe("A disruption id, from get_route_news"),
          completeDisruption(context),
        ),
      }),
    },
    async ({ id }) => {
      const disruption = await toolData<{
        id: string;
        headline: string;
        affected: { count: number; references: string[] } | null;
      }>(getDisruptionDetail, { id }, context);
      const touched = disruption.affected
        ? await Promise.all(
            disruption.affected.references.map((reference) =>
              optional(getShipmentStatus, { reference }, context),
            ),
          )
        : [];
      const shipments = touched.flatMap((s) => (s.ok ? [s.data] : []));
      return {
        description: `Your shipments touched by: ${disruption.headline}`,
        messages: [
          attached(uriFor("disruption", "id", disruption.id), disruption),
          text(
            [
              `Which of my shipments does the disruption "${disruption.headline}" touch, and what should I do about each?`,
              disruption.affected
                ? `It touches ${disruption.affected.count} of my active shipments; the most exposed ${shipments.length}: ${json(shipments)}`
                : "How many of my shipments it touches is not included in my plan: answer from the disruption's ports, carriers and countries, and say that the list of shipments needs a plan that includes it.",
              "For each shipment say how it is exposed (port, carrier, route), whether its ETA already moved, and the next step; end with what to watch in the disruption's sources.",
            ].join("\n\n"),
          ),
        ],
      };
    },
  );
}
