import {
  type McpServer,
  ProtocolError,
  type ReadResourceResult,
  type Resource,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { OUTCOMES } from "../../../src/http/outcomes";
import { type Completer, completeDisruption, completePort, completeReference } from "../completions";
import { toolData } from "../data";
import type { McpTool, ToolContext } from "../tool";
import { getDisruptionDetail } from "../tools/get-disruption-detail.tool";
import { getPortConditions } from "../tools/get-port-conditions.tool";
import { getShipmentStatus } from "../tools/get-shipment-status.tool";
import { getShipmentTimeline } from "../tools/get-shipment-timeline.tool";
import { listMyShipments } from "../tools/list-my-shipments.tool";

const JSON_TYPE = "application/json";

/**
 * A resource template: what an assistant can attach as context. Each is read through the tool that
 * answers the same question, so its JSON is that tool's `structuredContent`, key for key (and grows
 * with it, docs/mcp-changelog.md), under the same key, plan and visibility rules.
 */
interface QuaysideTemplate {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  tool: McpTool;
  /** The tool's arguments from the URI's variables (already decoded). */
  args(variables: Record<string, string>): Record<string, unknown>;
  complete(context: ToolContext): Record<string, Completer>;
}

export const RESOURCE_TEMPLATES: readonly QuaysideTemplate[] = [
  {
    name: "shipment",
    uriTemplate: "quayside://shipments/{reference}",
    title: "Shipment",
    description:
      "One shipment your organisation tracks, by container number, bill of lading, booking or SHP id: status, ports, ETA, boxes, last and next event (get_shipment_status's answer).",
    tool: getShipmentStatus,
    args: (v) => ({ reference: v.reference }),
    complete: (context) => ({ reference: completeReference(context) }),
  },
  {
    name: "container-timeline",
    uriTemplate: "quayside://containers/{container}/timeline",
    title: "Container timeline",
    description:
      "Every visible event of a tracked container, oldest first, and the ETA's history (get_shipment_timeline's answer).",
    tool: getShipmentTimeline,
    args: (v) => ({ reference: v.container }),
    complete: (context) => ({ container: completeReference(context, "container") }),
  },
  {
    name: "port-conditions",
    uriTemplate: "quayside://ports/{locode}/conditions",
    title: "Port conditions",
    description:
      "How congested a port is now against its own normal, by UN/LOCODE, e.g. NLRTM (get_port_conditions's answer).",
    tool: getPortConditions,
    args: (v) => ({ port: v.locode }),
    complete: (context) => ({ locode: completePort(context) }),
  },
  {
    name: "disruption",
    uriTemplate: "quayside://disruptions/{id}",
    title: "Disruption",
    description:
      "One disruption with its sources and how many of your shipments it touches (get_disruption_detail's answer).",
    tool: getDisruptionDetail,
    args: (v) => ({ id: v.id }),
    complete: (context) => ({ id: completeDisruption(context) }),
  },
];

/** Shipments per `resources/list` page. */
export const RESOURCE_PAGE_SIZE = 50;

export const shipmentUri = (reference: string) => `quayside://shipments/${encodeURIComponent(reference)}`;

const decoded = (variables: Record<string, string | string[]>) =>
  Object.fromEntries(
    Object.entries(variables).map(([name, value]) => {
      const raw = Array.isArray(value) ? value.join(",") : value;
      try {
        return [name, decodeURIComponent(raw)];
      } catch {
        return [name, raw];
      }
    }),
  );

/**
 * Registers the resource templates, their completions and a paged `resources/list` of the
 * organisation's shipments (newest first). The SDK's own list handler asks every template's list
 * callback for everything at once; an organisation can track thousands of shipments, so the list is
 * answered here a page at a time with an opaque cursor.
 */
export function registerResources(server: McpServer, context: ToolContext): void {
  for (const template of RESOURCE_TEMPLATES) {
    server.registerResource(
      template.name,
      new ResourceTemplate(template.uriTemplate, { list: undefined, complete: template.complete(context) }),
      { title: template.title, description: template.description, mimeType: JSON_TYPE },
      async (uri, variables): Promise<ReadResourceResult> => {
        const data = await toolData(template.tool, template.args(decoded(variables)), context, {
          uri: uri.href,
        });
        return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(data) }] };
      },
    );
  }
  server.server.setRequestHandler("resources/list", async (request) => {
    const page = pageOf(request.params?.cursor);
    const answer = await toolData<ShipmentPage>(
      listMyShipments,
      { page, pageSize: RESOURCE_PAGE_SIZE },
      context,
    );
    const resources: Resource[] = answer.shipments.map((s) => ({
      uri: shipmentUri(s.reference),
      name: s.reference,
      title: `Shipment ${s.reference}`,
      description: describeShipment(s),
      mimeType: JSON_TYPE,
    }));
    return answer.hasMore ? { resources, nextCursor: cursorOf(page + 1) } : { resources };
  });
}

interface ShipmentPage {
  hasMore: boolean;
  shipments: {
    reference: string;
    status: string;
    origin: string | null;
    destination: string | null;
    eta: string | null;
    isDelayed: boolean | null;
  }[];
}

function describeShipment(s: ShipmentPage["shipments"][number]): string {
  const route = s.origin || s.destination ? `, ${s.origin ?? "?"} to ${s.destination ?? "?"}` : "";
  const eta = s.eta ? `, ETA ${s.eta}` : "";
  return `${s.status}${route}${eta}${s.isDelayed ? ", delayed" : ""}`;
}

const cursorOf = (page: number) => Buffer.from(JSON.stringify({ page }), "utf8").toString("base64url");

/** The page a cursor names; a cursor this server did not give is the client's mistake (-32602). */
function pageOf(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  try {
    const { page } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { page?: unknown };
    if (typeof page === "number" && Number.isInteger(page) && page >= 1 && page <= 1_000_000) return page;
  } catch {
    // falls through to the refusal
  }
  throw new ProtocolError(
    OUTCOMES.bad_request.mcp.jsonRpcCode,
    "Invalid params: cursor is not one this server gave; start again without a cursor.",
  );
}
