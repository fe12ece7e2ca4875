/**
 * Both protocol eras on `POST /api/mcp`: a client of the SDK's 2.x packages negotiating revision
 * 2026-07-28 (per-request `_meta` envelope, `server/discover`, no `initialize`) and a 1.x client
 * negotiating 2025-11-25 (`initialize`) list and call the same tools, with output that matches the
 * declared schemas; neither is told tools may change (`listChanged` is not advertised).
 */

import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_SERVER_VERSION, MCP_TOOLS } from "../../facades/mcp/server";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { postJsonRpc, TRACKING_ENV } from "./support";

let app: TestApp;
let org: OrgWithKey;
let reference: string;

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "professional" });
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 1,
    start: 610_000,
  });
  reference = known[0]!;
  const tracked = await fetch(`${app.url}/api/v1/container/${reference}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(tracked.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const requestInit = () => ({ headers: { authorization: `Bearer ${org.key}` } });

interface ListedTool {
  name: string;
  outputSchema?: Record<string, unknown>;
}
interface CalledTool {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** Calls each tool as an assistant would and checks the answer against the tool's listed schema. */
async function callsWithValidatedOutput(
  tools: ListedTool[],
  call: (name: string, args: Record<string, unknown>) => Promise<CalledTool>,
): Promise<Record<string, unknown>[]> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const answers: Record<string, unknown>[] = [];
  for (const [name, args] of [
    ["get_shipment_status", { reference }],
    ["get_shipment_timeline", { reference }],
    ["check_carrier_support", { carrier: "MSCU" }],
    ["get_team", {}],
  ] as const) {
    const result = await call(name, args);
    const text = result.content.map((c) => c.text ?? "").join("\n");
    expect(result.isError, `${name}: ${text}`).toBeFalsy();
    const validate = ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
    expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    expect(JSON.parse(text)).toEqual(result.structuredContent);
    answers.push(result.structuredContent!);
  }
  return answers;
}

describe("a 2026-07-28 client (SDK 2.x)", () => {
  it("negotiates 2026-07-28 through server/discover, lists the tools and calls them", async () => {
    const client = new ModernClient(
      { name: "quayside-tests", version: "2.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new ModernTransport(new URL(`${app.url}/api/mcp`), { requestInit: requestInit() }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getServerVersion()).toMatchObject({ name: "quayside", version: MCP_SERVER_VERSION });
      expect(client.getServerCapabilities()?.tools).toEqual({});
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
      const [status] = await callsWithValidatedOutput(
        tools,
        (name, args) => client.callTool({ name, arguments: args }) as Promise<CalledTool>,
      );
      expect(status).toMatchObject({ reference });
      // A reference the organisation does not track is a tool error with a sentence, not a protocol error.
      const missing = (await client.callTool({
        name: "get_shipment_status",
        arguments: { reference: "MSCU0000000" },
      })) as CalledTool;
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toMatch(/is tracked by your organisation/);
    } finally {
      await client.close();
    }
  });

  it("negotiates 2026-07-28 when it probes (auto) rather than pins", async () => {
    const client = new ModernClient(
      { name: "quayside-tests", version: "2.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new ModernTransport(new URL(`${app.url}/api/mcp`), { requestInit: requestInit() }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("get_shipment_status");
    } finally {
      await client.close();
    }
  });

  it("answers server/discover on the wire: the revisions served, tools without listChanged, no session", async () => {
    const discovered = await postJsonRpc(
      app,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      {
        authorization: `Bearer ${org.key}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
      },
    );
    expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
    expect(discovered.headers.get("mcp-session-id")).toBeNull();
    const result = (discovered.body as { result: Record<string, any> }).result;
    expect(result.supportedVersions).toEqual(["2026-07-28"]);
    expect(result.capabilities.tools).toEqual({});
    expect(JSON.stringify(result.capabilities)).not.toContain("listChanged");
  });

  it("refuses a revision it does not serve with the unsupported-version error naming the one it does", async () => {
    const refused = await postJsonRpc(
      app,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      {
        authorization: `Bearer ${org.key}`,
        "mcp-protocol-version": "2099-01-01",
        "mcp-method": "tools/list",
      },
    );
    const body = refused.body as { id: number; error: { code: number; data: { supported: string[] } } };
    expect(body.id).toBe(2);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toEqual(["2026-07-28"]);
  });
});

describe("a 2025-11-25 client (SDK 1.x)", () => {
  it("negotiates 2025-11-25 through initialize, lists the tools and calls them", async () => {
    const client = new LegacyClient({ name: "quayside-tests", version: "1.0.0" });
    const transport = new LegacyTransport(new URL(`${app.url}/api/mcp`), { requestInit: requestInit() });
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe("2025-11-25");
      expect(client.getServerVersion()).toMatchObject({ name: "quayside", version: MCP_SERVER_VERSION });
      expect(client.getServerCapabilities()?.tools).toEqual({});
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
      const [status] = await callsWithValidatedOutput(
        tools,
        (name, args) => client.callTool({ name, arguments: args }) as Promise<CalledTool>,
      );
      expect(status).toMatchObject({ reference });
    } finally {
      await client.close();
    }
  });

  it("answers initialize on the wire with the version asked for and capabilities without listChanged", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const initialized = await postJsonRpc(
        app,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "curl", version: "1" } },
        },
        { authorization: `Bearer ${org.key}`, "mcp-protocol-version": version },
      );
      expect(initialized.status).toBe(200);
      expect(initialized.headers.get("content-type")).toMatch(/^application\/json/);
      expect(initialized.headers.get("mcp-session-id")).toBeNull();
      const result = (initialized.body as { result: Record<string, any> }).result;
      expect(result.protocolVersion).toBe(version);
      // Nothing the server offers changes while it runs, and nothing is subscribable (stateless).
      expect(result.capabilities).toEqual({
        tools: {},
        resources: {},
        prompts: {},
        completions: {},
        logging: {},
      });
    }
  });
});
