/**
 * Issue 37 item 3: one 2025-era request that leaves nothing on the server is answered on a kept
 * server's own transport (facades/mcp/direct.ts), not the SDK's web transport. Anything the SDK's
 * transport would refuse or treat otherwise must still go to it.
 */
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { DirectTransport, directMessage, type McpRequestHeaders } from "../../../facades/mcp/direct";

const headers: McpRequestHeaders = {
  accept: "application/json, text/event-stream",
  contentType: "application/json",
  protocolVersion: "2025-06-18",
};
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_team", arguments: {} } };
const direct = (body: unknown, changed: Partial<McpRequestHeaders> = {}) =>
  directMessage(body, { ...headers, ...changed }, SUPPORTED_PROTOCOL_VERSIONS);

describe("which MCP requests the router answers on its own transport", () => {
  it("takes one call, list, read or ping of a 2025-era client, with or without the version header", () => {
    expect(direct(call)).toEqual(call);
    expect(
      direct(call, { protocolVersion: undefined, contentType: "application/json; charset=utf-8" }),
    ).toEqual(call);
    for (const method of ["tools/list", "resources/read", "prompts/get", "completion/complete", "ping"]) {
      expect(direct({ jsonrpc: "2.0", id: "x", method, params: {} })).not.toBeNull();
    }
  });

  it("leaves batches, notifications, answers and methods that leave state on the server to the SDK", () => {
    expect(direct([call])).toBeNull();
    expect(direct({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeNull();
    expect(direct({ jsonrpc: "2.0", id: 1, result: {} })).toBeNull();
    expect(direct({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toBeNull();
    expect(
      direct({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "info" } }),
    ).toBeNull();
  });

  it("leaves to the SDK what its transport refuses: Accept, Content-Type, an unknown version, a bad message", () => {
    expect(direct(call, { accept: "application/json" })).toBeNull();
    expect(direct(call, { accept: undefined })).toBeNull();
    expect(direct(call, { contentType: "text/plain" })).toBeNull();
    expect(direct(call, { protocolVersion: "2024-01-01" })).toBeNull();
    expect(direct({ ...call, id: { not: "an id" } })).toBeNull();
  });

  it("leaves 2026-era requests to the modern handler", () => {
    expect(direct(call, { protocolVersion: "2026-07-28" })).toBeNull();
    const enveloped = {
      ...call,
      params: { ...call.params, _meta: { [PROTOCOL_VERSION_META_KEY]: "2026-07-28" } },
    };
    expect(direct(enveloped, { protocolVersion: undefined })).toBeNull();
  });
});

describe("the direct transport", () => {
  it("hands the request to the server and resolves with the answer to that request only", async () => {
    const transport = new DirectTransport();
    transport.onmessage = (message) => {
      const id = (message as { id: number }).id;
      void transport.send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: 1 },
      });
      void transport.send({ jsonrpc: "2.0", id: id + 1, result: { other: true } });
      void transport.send({ jsonrpc: "2.0", id, result: { mine: true } });
    };
    await expect(transport.serve({ jsonrpc: "2.0", id: 5, method: "ping" })).resolves.toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { mine: true },
    });
  });

  it("serves one request at a time", async () => {
    const transport = new DirectTransport();
    void transport.serve({ jsonrpc: "2.0", id: 1, method: "ping" });
    await expect(transport.serve({ jsonrpc: "2.0", id: 2, method: "ping" })).rejects.toThrow(
      /one request at a time/,
    );
  });
});
