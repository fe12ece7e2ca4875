import { McpServer, type RegisteredTool } from "@modelcontextprotocol/server";
import type { Principal } from "../../src/http/gate";
import type { OutcomeCode } from "../../src/http/outcomes";
import { registerPrompts } from "./prompts/prompts";
import { registerResources } from "./resources/resources";
import { type McpDeps, type McpTool, registerTool, type ToolContext, toolContext } from "./tool";
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

/** A server bound to one request at a time: its tools run as the principal bound last. */
export interface BindableMcpServer {
  server: McpServer;
  bind(principal: Principal, requestId: string): void;
  unbind(): void;
}

/**
 * A server whose tools, resources and prompts run as whichever request it is bound to
 * (stateless streamable HTTP: no tool takes an account, organisation or user id). Building one
 * registers 21 tools, the resources and the prompts (about a quarter of a millisecond and much of a
 * `tools/call`'s garbage), so the router keeps idle servers between requests (`McpServerPool`);
 * the SDK refuses an instance that is still serving another request, so concurrent requests each
 * take one. The output schemas' conversion is shared by every server (above).
 */
export function bindableMcpServer(deps: McpDeps): BindableMcpServer {
  let bound: { context: ToolContext; requestId: string } | null = null;
  const current = () => {
    if (!bound) throw new Error("an MCP server ran outside a request");
    return bound;
  };
  const context: ToolContext = {
    run: (document, ...variables) => current().context.run(document, ...variables),
  };
  const server = new McpServer(
    { name: "quayside", title: "Quayside container tracking", version: MCP_SERVER_VERSION },
    // `logging`: `logging/setLevel` is accepted on 2025-era sessions, but a stateless server answering
    // with JSON has no stream to send `notifications/message` on (docs/mcp-conformance.md).
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} },
      instructions: INSTRUCTIONS,
    },
  );
  const log = (error: unknown, tool: string, outcome: OutcomeCode) => {
    const requestId = bound?.requestId;
    // An outage is a warning without a stack; anything else is a bug to look at.
    if (outcome === "unexpected") deps.log("error", { err: error, tool, requestId }, "MCP tool failed");
    else deps.log("warn", { outcome, tool, requestId }, "MCP tool refused: database unavailable");
  };
  for (const tool of MCP_TOOLS) {
    const registered = registerTool(server, tool, context, log);
    if (outputSchemaJson.has(tool)) registered.outputSchemaJson = outputSchemaJson.get(tool);
    else outputSchemaJson.set(tool, registered.outputSchemaJson);
  }
  registerResources(server, context);
  registerPrompts(server, context);
  // The tool list is fixed for the life of the process (every server is built from MCP_TOOLS), so
  // `tools/list_changed` can never be sent: `listChanged` is not advertised at all, neither on
  // `initialize` nor on `server/discover`. The SDK sets it to true when the first tool is
  // registered, unless told otherwise; this takes the key out of the capabilities it answers with.
  // The same holds for resource templates and prompts; resources are not subscribable (no session).
  const capabilities = server.server.getCapabilities();
  delete capabilities.tools?.listChanged;
  delete capabilities.resources?.listChanged;
  delete capabilities.prompts?.listChanged;
  return {
    server,
    bind(principal, requestId) {
      bound = { context: toolContext(deps, principal, requestId), requestId };
    },
    unbind() {
      bound = null;
    },
  };
}

/** A server built for one request and bound to it (the modern handler's, and tests'). */
export function createMcpServer(
  deps: McpDeps,
  principal: Principal,
  options: { requestId: string },
): McpServer {
  const made = bindableMcpServer(deps);
  made.bind(principal, options.requestId);
  return made.server;
}

/**
 * Idle servers kept for the next requests. A server goes back only after a request that leaves no
 * state on it: an `initialize` records the client's identity and capabilities on the instance, so
 * a server that answered one is dropped (`reusableAfter`).
 */
export class McpServerPool {
  private readonly idle: BindableMcpServer[] = [];

  constructor(
    private readonly deps: McpDeps,
    /** At most this many idle servers are kept (the requests in flight at once, as a rule). */
    private readonly keep = 16,
  ) {}

  take(principal: Principal, requestId: string): BindableMcpServer {
    const server = this.idle.pop() ?? bindableMcpServer(this.deps);
    server.bind(principal, requestId);
    return server;
  }

  /** After its transport closed: kept for another request when `reusable`, else let go. */
  give(server: BindableMcpServer, reusable: boolean): void {
    server.unbind();
    if (reusable && server.server.server.transport === undefined && this.idle.length < this.keep) {
      this.idle.push(server);
    }
  }

  get idleCount(): number {
    return this.idle.length;
  }
}

/** Methods that leave nothing on the server instance: a server that answered only these is reused. */
const STATELESS_METHODS = new Set([
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "ping",
  "notifications/initialized",
]);

/** Whether a server that served `body` (one JSON-RPC message or a batch) may serve another request. */
export function reusableAfter(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.every((m) => {
    const method = (m as { method?: unknown } | null)?.method;
    return typeof method === "string" && STATELESS_METHODS.has(method);
  });
}
