/**
 * Issue 37 item 3: the MCP server is built per request (the SDK serves one exchange per instance), but
 * each tool's output schema is converted to JSON Schema once per process: every later server's
 * registration is handed the first one's, so `tools/call` no longer converts a zod schema per call.
 * Building a server runs no tool, so the dependencies below are never called.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { createMcpServer, MCP_TOOLS } from "../../../facades/mcp/server";
import type { McpDeps } from "../../../facades/mcp/tool";
import type { Principal } from "../../../src/http/gate";

const deps = { log: () => {} } as unknown as McpDeps;
const principal = {} as Principal;

/** The SDK's registration of a tool (its memo lives there). */
const registration = (server: McpServer, name: string) =>
  (server as unknown as { _registeredTools: Record<string, { outputSchemaJson?: unknown }> })
    ._registeredTools[name]!;

describe("MCP tool output schemas", () => {
  it("are converted once per process: every server's registration holds the same JSON Schema", () => {
    const first = createMcpServer(deps, principal, { requestId: "a" });
    const second = createMcpServer(deps, principal, { requestId: "b" });
    for (const tool of MCP_TOOLS) {
      const converted = registration(first, tool.name).outputSchemaJson;
      expect(converted, tool.name).toMatchObject({ type: "object" });
      expect(registration(second, tool.name).outputSchemaJson, tool.name).toBe(converted);
    }
  });
});
