import {
  classifyInboundRequest,
  isJSONRPCRequest,
  isJsonContentType,
  type JSONRPCMessage,
  type JSONRPCRequest,
  parseJSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import type { Principal } from "../../src/http/gate";
import { type BindableMcpServer, bindableMcpServer, reusableAfter } from "./server";
import type { McpDeps } from "./tool";

/**
 * A transport of our own between the router and a kept server, for the commonest request: one 2025-era
 * JSON-RPC request that leaves nothing on the server (`tools/call`, a list, a read, `ping`). The
 * SDK's streamable HTTP transport serves it too, but through a web `Request` and `Response` made for
 * the request, a transport connected and closed per request (the close builds an error with its
 * stack), and the answer serialised into a web body that the router reads back as text: about a third
 * of a stored `get_shipment_status` (docs/decisions/read-path.md). Here the server stays connected to
 * this transport for its whole life, the parsed message is handed to it, and its answer object comes
 * back. Everything else the SDK transport does before it hands a message on is checked first
 * (`directMessage`); a request that would not pass it, or anything less plain, takes the SDK's path.
 */
export class DirectTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  /** The versions the server speaks, as the SDK transport learns them to check the version header. */
  supportedVersions: readonly string[] = [];
  private waiting: { id: JSONRPCRequest["id"]; answer: (message: JSONRPCMessage) => void } | null = null;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions = versions;
  }

  /**
   * The server's messages. Only the answer to the request in hand is kept: a notification sent while a
   * tool runs (a log message, progress) has no stream to go on, as with the SDK's JSON answers.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    const waiting = this.waiting;
    if (!waiting || !("id" in message) || "method" in message || message.id !== waiting.id) return;
    this.waiting = null;
    waiting.answer(message);
  }

  /** One request through the server; resolves with its answer (a result or an error). */
  serve(request: JSONRPCRequest): Promise<JSONRPCMessage> {
    if (this.waiting) return Promise.reject(new Error("a direct MCP transport serves one request at a time"));
    return new Promise((answer) => {
      this.waiting = { id: request.id, answer };
      this.onmessage?.(request);
    });
  }
}

/** The headers of the HTTP request the SDK transport would read. */
export interface McpRequestHeaders {
  accept?: string;
  contentType?: string;
  protocolVersion?: string;
  mcpMethod?: string;
  mcpName?: string;
}

/**
 * The body as the one request a direct transport can serve, or null when the SDK's transport must
 * answer it. Null for: a batch, a notification or a response; a method that leaves state on the server
 * (`initialize`, `logging/setLevel`); a 2026-era request (the modern handler's); and anything the SDK
 * transport refuses before the server sees it: an Accept without both JSON and event streams, a body
 * not typed JSON, a message that is not valid JSON-RPC, a protocol version header the server does not
 * speak. The message returned is the one the SDK transport would hand on (the same parse).
 */
export function directMessage(
  body: unknown,
  headers: McpRequestHeaders,
  supportedVersions: readonly string[],
): JSONRPCRequest | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || !reusableAfter(body)) return null;
  const accept = headers.accept;
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return null;
  if (!isJsonContentType(headers.contentType)) return null;
  const version = headers.protocolVersion;
  if (version !== undefined && !supportedVersions.includes(version)) return null;
  const era = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: version,
    mcpMethodHeader: headers.mcpMethod,
    mcpNameHeader: headers.mcpName,
    body,
  });
  if (era.kind !== "legacy") return null;
  let message: JSONRPCMessage;
  try {
    message = parseJSONRPCMessage(body);
  } catch {
    return null;
  }
  return isJSONRPCRequest(message) ? message : null;
}

/** A kept server on its own direct transport, connected once for its life. */
export interface DirectMcpServer {
  bindable: BindableMcpServer;
  transport: DirectTransport;
}

/**
 * Idle servers on direct transports. A request takes one (concurrent requests each their own: a
 * transport serves one request at a time) and gives it back when answered; only methods that leave
 * nothing on a server come this way, so every server goes back.
 */
export class DirectMcpServers {
  private readonly idle: DirectMcpServer[] = [];
  /** The protocol versions the servers speak, learnt from the first one connected. */
  private versions: readonly string[] | null = null;

  constructor(
    private readonly deps: McpDeps,
    /** At most this many idle servers are kept (the requests in flight at once, as a rule). */
    private readonly keep = 16,
  ) {}

  /** What the servers tell their transport they speak: what a version header is checked against. */
  async supportedVersions(): Promise<readonly string[]> {
    if (!this.versions) this.idle.push(await this.connect());
    return this.versions ?? [];
  }

  async take(principal: Principal, requestId: string): Promise<DirectMcpServer> {
    const kept = this.idle.pop() ?? (await this.connect());
    kept.bindable.bind(principal, requestId);
    return kept;
  }

  give(kept: DirectMcpServer): void {
    kept.bindable.unbind();
    if (this.idle.length < this.keep) this.idle.push(kept);
    else void kept.bindable.server.close().catch(() => undefined);
  }

  private async connect(): Promise<DirectMcpServer> {
    const bindable = bindableMcpServer(this.deps);
    const transport = new DirectTransport();
    await bindable.server.connect(transport);
    this.versions ??= transport.supportedVersions;
    return { bindable, transport };
  }
}
