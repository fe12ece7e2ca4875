import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "../../facades/mcp/server";
import type { McpDeps } from "../../facades/mcp/tool";
import { OPERATION_FOLDERS } from "../../src/app/operation-folders";
import { OperationExecutor } from "../../src/graphql/executor";
import { operationRunner } from "../../src/graphql/operation-runner";
import { schema } from "../../src/graphql/schema";
import type { TestApp } from "../support/app";

export const TRACKING_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_CARRIER_TIMEOUT_MS: "3000",
};

/** An SDK client connected to the started app over streamable HTTP with the key as a Bearer token. */
export async function httpClient(app: TestApp, key: string): Promise<Client> {
  const client = new Client({ name: "quayside-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** An SDK client linked in memory to a server built for the principal behind a key: no HTTP at all. */
export async function inMemoryClient(app: TestApp, key: string): Promise<Client> {
  const authentication = await app.services.accounts.authenticate(key);
  if (!authentication.ok) throw new Error(`key refused: ${authentication.refusal}`);
  const executor = await OperationExecutor.load(schema, OPERATION_FOLDERS);
  const server = createMcpServer(
    { run: operationRunner(executor, app.services, "mcp"), log: appLog(app) },
    authentication.principal,
    { requestId: "in-memory" },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "quayside-tests", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** The app's logger as a facade's log (what the composition root hands the MCP server). */
export const appLog =
  (app: TestApp): McpDeps["log"] =>
  (level, fields, message) =>
    app.services.logger[level](fields, message);

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** Raw JSON-RPC over HTTP, for what the SDK client never sends (batches, wrong verbs, bad headers). */
export async function postJsonRpc(
  app: TestApp,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(`${app.url}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export const toolsCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** The start of a minute in the real time zone of the tests, plus 30 s: bursts never straddle a window. */
export const midMinute = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
