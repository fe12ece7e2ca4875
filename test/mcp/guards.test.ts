import { fileURLToPath } from "node:url";
import { Kind, type OperationDefinitionNode, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { inspectBody, MAX_BATCH_MESSAGES } from "../../facades/mcp/batch";
import { originPolicy } from "../../facades/mcp/origin-policy";
import { MCP_TOOLS } from "../../facades/mcp/server";
import { loadOperationFiles } from "../../src/graphql/executor";

const policy = (input: Partial<Parameters<typeof originPolicy>[0]> = {}) =>
  originPolicy({
    bindHost: "127.0.0.1",
    publicUrl: undefined,
    allowedHosts: [],
    allowedOrigins: [],
    ...input,
  });

describe("Host and Origin (DNS rebinding)", () => {
  it("on loopback: only loopback names as Host, ports ignored", () => {
    const check = policy();
    for (const host of ["localhost:8080", "127.0.0.1:1", "[::1]:8080", "localhost", "127.0.0.2"]) {
      expect(check(host, undefined), host).toEqual({ ok: true });
    }
    for (const host of ["evil.example:8080", "attacker.com", "127.0.0.1.nip.io", undefined]) {
      expect(check(host, undefined), String(host)).toMatchObject({ ok: false, header: "Host" });
    }
  });

  it("adds the public URL's host and the configured hosts to loopback", () => {
    const check = policy({ publicUrl: "https://track.example.com", allowedHosts: ["10.0.0.5"] });
    expect(check("track.example.com", undefined).ok).toBe(true);
    expect(check("10.0.0.5:8080", undefined).ok).toBe(true);
    expect(check("other.example.com", undefined).ok).toBe(false);
  });

  it("bound to all interfaces, checks Host only when told which names are its own", () => {
    expect(policy({ bindHost: "0.0.0.0" })("anything.internal:8080", undefined).ok).toBe(true);
    const listed = policy({ bindHost: "0.0.0.0", allowedHosts: ["mcp.example.com"] });
    expect(listed("mcp.example.com", undefined).ok).toBe(true);
    expect(listed("anything.internal", undefined)).toMatchObject({ ok: false, header: "Host" });
    expect(policy({ allowedHosts: ["*"] })("evil.example", undefined).ok).toBe(true);
  });

  it("admits no Origin, loopback origins on any port, the public URL's origin and listed ones", () => {
    const check = policy({
      publicUrl: "https://track.example.com/",
      allowedOrigins: ["https://app.example.com"],
    });
    for (const origin of [
      undefined,
      "http://localhost:6274",
      "https://127.0.0.1",
      "http://[::1]:3000",
      "https://track.example.com",
      "https://app.example.com",
    ]) {
      expect(check("localhost", origin), String(origin)).toEqual({ ok: true });
    }
    for (const origin of [
      "http://evil.example",
      "null",
      "https://track.example.com:444",
      "file:///etc",
      "http://app.example.com",
    ]) {
      expect(check("localhost", origin), origin).toMatchObject({ ok: false, header: "Origin" });
    }
    expect(policy({ allowedOrigins: ["*"] })("localhost", "http://evil.example").ok).toBe(true);
  });
});

describe("batch inspection", () => {
  it("counts messages, caps a batch at 20 and refuses an empty one", () => {
    expect(inspectBody({ jsonrpc: "2.0", id: 7, method: "tools/list" })).toEqual({
      ok: true,
      messages: 1,
      requestId: 7,
    });
    expect(inspectBody({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({
      ok: true,
      messages: 1,
      requestId: null,
    });
    expect(inspectBody(undefined)).toMatchObject({ ok: true, messages: 1 });
    expect(inspectBody(Array(MAX_BATCH_MESSAGES).fill({}))).toEqual({
      ok: true,
      messages: 20,
      requestId: null,
    });
    expect(inspectBody(Array(21).fill({}))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/holds 21/),
    });
    expect(inspectBody([])).toMatchObject({ ok: false });
  });
});

describe("read-only by construction", () => {
  it("every persisted operation of the MCP facade is a query: no tool can run a mutation", async () => {
    const files = await loadOperationFiles(
      fileURLToPath(new URL("../../facades/mcp/operations", import.meta.url)),
    );
    expect(files.length).toBeGreaterThanOrEqual(MCP_TOOLS.length);
    for (const file of files) {
      const operations = parse(file.source).definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      expect(
        operations.map((o) => o.operation),
        file.name,
      ).toEqual(["query"]);
    }
  });
});
