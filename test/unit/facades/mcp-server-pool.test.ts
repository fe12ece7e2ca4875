/**
 * Issue 37 item 3: the router keeps MCP servers between requests instead of building one (21 tools,
 * resources, prompts) per request. A server goes back only after requests that leave nothing on it.
 */
import { describe, expect, it } from "vitest";
import { McpServerPool, reusableAfter } from "../../../facades/mcp/server";
import type { McpDeps } from "../../../facades/mcp/tool";
import type { Principal } from "../../../src/http/gate";

const deps = { log: () => {} } as unknown as McpDeps;
const principal = {} as Principal;

describe("the MCP server pool", () => {
  it("hands the server given back to the next request, and builds another while one is out", () => {
    const pool = new McpServerPool(deps);
    const first = pool.take(principal, "a");
    const second = pool.take(principal, "b");
    expect(second).not.toBe(first);
    pool.give(first, true);
    expect(pool.take(principal, "c")).toBe(first);
  });

  it("lets go of a server after a request that leaves state on it, and keeps at most its bound", () => {
    const pool = new McpServerPool(deps, 1);
    const used = pool.take(principal, "a");
    pool.give(used, false);
    expect(pool.take(principal, "b")).not.toBe(used);
    const [x, y] = [pool.take(principal, "c"), pool.take(principal, "d")];
    pool.give(x, true);
    pool.give(y, true);
    expect(pool.idleCount).toBe(1);
  });

  it("reuses a server after calls, lists, reads and pings, never after an initialize", () => {
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_team" } };
    expect(reusableAfter(call)).toBe(true);
    expect(reusableAfter([call, { jsonrpc: "2.0", id: 2, method: "resources/read" }])).toBe(true);
    expect(reusableAfter({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(true);
    expect(reusableAfter({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toBe(false);
    expect(reusableAfter([call, { jsonrpc: "2.0", id: 2, method: "initialize" }])).toBe(false);
    expect(reusableAfter({ jsonrpc: "2.0", id: 1, method: "logging/setLevel" })).toBe(false);
    expect(reusableAfter(null)).toBe(false);
  });
});
