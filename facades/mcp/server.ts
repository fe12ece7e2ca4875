import { McpServer, type RegisteredTool } from "@modelcontextprotocol/server";
import type { Principal } from "../../src/http/gate";
import type { OutcomeCode } from "../../src/http/outcomes";
import { registerPrompts } from "./prompts/prompts";
import { registerResources } from "./resources/resources";
import { type McpDeps, type McpTool, registerTool, toolContext } from "./tool";
import { checkCarrierSupport } from "./tools/check-carrier-support.tool";
import { getDisruptionDetail } from "./tools/get-disruption-detail.tool";
import { getDndStatus } from "./tools/get-dnd-status.tool";
import { getDocumentMeta } from "./tools/get-document-meta.tool";
import { getMisReport } from "./tools/get-mis-report.tool";
import { getNotificationPrefs } from "./tools/get-notification-prefs.tool";
import { getPortConditions } from "./tools/get-port-conditions.tool";
import { getQuoteRequestStatus } from "./tools/get-quote-request-status.tool";
import { getRefreshSchedule } from "./tools/get-refresh-schedule.tool";
import { getRouteNews } from "./tools/get-route-news.tool";
import { getShipmentStatus } from "./tools/get-shipment-status.tool";
import { getShipmentTimeline } from "./tools/get-shipment-timeline.tool";
import { getTeam } from "./tools/get-team.tool";
import { getTicketStatus } from "./tools/get-ticket-status.tool";
import { getVesselSchedules } from "./tools/get-vessel-schedules.tool";
import { listCustomers } from "./tools/list-customers.tool";
import { listDocuments } from "./tools/list-documents.tool";
import { listMyShipments } from "./tools/list-my-shipments.tool";
import { searchApiDocs } from "./tools/search-api-docs.tool";
import { searchHelp } from "./tools/search-help.tool";
import { trackVessel } from "./tools/track-vessel.tool";

/**
 * The version in the server info. Tool output changes are listed against it in
 * docs/mcp-changelog.md (spec v1 section 9); output only grows, so a change is a minor version.
 */
export const MCP_SERVER_VERSION = "1.10.0";

/** The tools served, in the order `tools/list` answers them. A tool is listed only once it works. */
export const MCP_TOOLS: readonly McpTool[] = [
  listMyShipments,
  getShipmentStatus,
  getShipmentTimeline,
  getRefreshSchedule,
  listDocuments,
  getDocumentMeta,
  getVesselSchedules,
  trackVessel,
  getRouteNews,
  getDisruptionDetail,
  getPortConditions,
  getDndStatus,
  checkCarrierSupport,
  searchApiDocs,
  searchHelp,
  listCustomers,
  getTeam,
  getMisReport,
  getNotificationPrefs,
  getTicketStatus,
  getQuoteRequestStatus,
];

const INSTRUCTIONS = [
  "Quayside tracks ocean containers for the organisation that owns the API key.",
  "Every tool is read-only: nothing is tracked, changed or billed; shipment tools read stored data and never ask a carrier.",
  "Look a shipment up by container number (e.g. MSCU1234566), bill of lading, booking or SHP id.",
  "get_vessel_schedules reads carriers' published schedules and track_vessel finds a vessel by name or IMO number; both spend the key's daily lookup allowance unless cached.",
  "get_route_news lists active disruptions touching a shipment, any of yours, or all; get_disruption_detail reads one with its sources.",
  "get_port_conditions tells how congested a port is now against its own normal (readings computed ahead of time, no provider call).",
  "search_help answers how-to questions from the help articles; get_mis_report gives on-time and delay figures of your shipments against their first ETA.",
  "get_notification_prefs reads your e-mail notification choices and the organisation's webhook endpoints by host (addresses masked, never a secret).",
  "get_dnd_status tells a shipment's demurrage and detention per box: free days left, last free day, overrun cost.",
  "list_documents and get_document_meta describe documents uploaded for your shipments (never their contents); get_ticket_status and get_quote_request_status follow your support tickets and freight quote requests.",
].join(" ");

/**
 * Each tool's output schema as JSON Schema, converted once per process. The SDK converts a registered
 * tool's output schema on its first `tools/call` and memoises it on that registration only; with a
 * server per request that was one zod-to-JSON-Schema conversion per call (12% of the busy time of
 * `get_shipment_status`, bench/analysis.md). The SDK reads the converted schema and never changes it,
 * so every server shares the first one's (`RegisteredTool.outputSchemaJson`, a public setter).
 */
const outputSchemaJson = new WeakMap<McpTool, RegisteredTool["outputSchemaJson"]>();

/**
 * One server per request (stateless streamable HTTP), bound to the principal the key authenticated:
 * no tool takes an account, organisation or user id. Not one per process: the SDK keeps each
 * exchange's state on the instance (its transport, the negotiated revision, the client's identity)
 * and refuses an instance that is still serving another request (`createMcpHandler`), so concurrent
 * requests need an instance each; what a server per request used to repeat per call, the output
 * schemas' conversion, is done once above (docs/decisions/read-path.md).
 */
export function createMcpServer(
  deps: McpDeps,
  principal: Principal,
  options: { requestId: string },
): McpServer {
  const server = new McpServer(
    { name: "quayside", title: "Quayside container tracking", version: MCP_SERVER_VERSION },
    // `logging`: `logging/setLevel` is accepted on 2025-era sessions, but a stateless server answering
    // with JSON has no stream to send `notifications/message` on (docs/mcp-conformance.md).
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
      instructions: INSTRUCTIONS,
    },
  );
  const context = toolContext(deps, principal, options.requestId);
  const log = (error: unknown, tool: string, outcome: OutcomeCode) => {
    // An outage is a warning without a stack; anything else is a bug to look at.
    if (outcome === "unexpected")
      deps.log("error", { err: error, tool, requestId: options.requestId }, "MCP tool failed");
    else
      deps.log(
        "warn",
        { outcome, tool, requestId: options.requestId },
        "MCP tool refused: database unavailable",
      );
  };
  for (const tool of MCP_TOOLS) {
    const registered = registerTool(server, tool, context, log);
    if (outputSchemaJson.has(tool)) registered.outputSchemaJson = outputSchemaJson.get(tool);
    else outputSchemaJson.set(tool, registered.outputSchemaJson);
  }
  registerResources(server, context);
  registerPrompts(server, context);
  // The tool list is fixed for the life of the process (a server is built per request from
  // MCP_TOOLS), so `tools/list_changed` can never be sent: `listChanged` is not advertised at all,
  // neither on `initialize` nor on `server/discover`. The SDK sets it to true when the first tool is
  // registered, unless told otherwise; this takes the key out of the capabilities it answers with.
  // The same holds for resource templates and prompts; resources are not subscribable (no session).
  const capabilities = server.server.getCapabilities();
  delete capabilities.tools?.listChanged;
  delete capabilities.resources?.listChanged;
  delete capabilities.prompts?.listChanged;
  return server;
}
