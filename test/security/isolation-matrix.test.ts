import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { pdfBytes, uploadDocument } from "../support/workspace";
import { jsonRpcMessages, parseJson } from "./support/checks";
import { FUZZ_ENV } from "./support/fuzz";
import { enc, send } from "./support/http";
import { changedTables, organizationState } from "./support/state";

/**
 * The tenant-isolation matrix. Organisation A holds one of every object (shipments, tracking history,
 * customers, share links, webhook endpoints and deliveries, keys, a team); organisation B asks for each
 * of A's objects by every id, reference or number, on every surface and in every way the surface
 * allows. Every cell must answer exactly what a nonexistent id answers (same status, same error code
 * or shape), never 403, never one of A's values; and A's stored state must be unchanged at the end.
 *
 * A new object type (documents, tickets, quotes, notification preferences) is one row of OBJECTS.
 */

type Surface = "v1" | "compat" | "graphql" | "mcp" | "share";

/** What a cell compares: the status and the error code or the shape of the data, never the values. */
interface Answer {
  status: number;
  outcome: string;
  text: string;
  /** What B sent (path and body): A's values in it may be echoed back. */
  request: string;
}

interface Way {
  surface: Surface;
  name: string;
  ask: (id: string) => Promise<Answer>;
}

interface IdForm {
  name: string;
  /** A's value. */
  of: () => string;
  /** A value of the same form that names nothing at all. */
  nonexistent: () => string;
}

interface ObjectRow {
  object: string;
  ids: IdForm[];
  ways: Way[];
}

const clock = new ManualClock();
let app: TestApp;
let a: OrgWithKey;
let aMate: OrgWithKey;
let b: OrgWithKey;
const A: Record<string, string> = {};
let unknownContainer: string;

/** An answer's shape with the values taken out: arrays by length, strings only as __typename. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "__typename" || k === "code" ? v : shape(v)]),
    );
  }
  return value === null ? null : typeof value;
}

async function v1(method: string, path: string, body?: unknown): Promise<Answer> {
  const ex = await send(app.url, {
    method,
    path: `/api/v1${path}`,
    headers: { authorization: `Bearer ${b.key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed = parseJson(ex.text);
  const error = parsed.ok ? (parsed.value as { data?: { error?: string } }).data?.error : "not JSON";
  return {
    status: ex.status,
    outcome: String(error ?? "ok"),
    text: ex.text,
    request: `${ex.path} ${ex.body ?? ""}`,
  };
}

async function compat(query: string): Promise<Answer> {
  const ex = await send(app.url, { method: "GET", path: `/compat${query}`, headers: { "x-api-key": b.key } });
  const parsed = parseJson(ex.text);
  return {
    status: ex.status,
    outcome: parsed.ok ? String((parsed.value as { message?: string }).message) : "not JSON",
    text: ex.text,
    request: ex.path,
  };
}

async function gql(query: string, variables: Record<string, unknown>): Promise<Answer> {
  const ex = await send(app.url, {
    method: "POST",
    path: "/graphql",
    headers: { authorization: `Bearer ${b.key}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const parsed = parseJson(ex.text);
  const body = (parsed.ok ? parsed.value : {}) as {
    data?: unknown;
    errors?: { extensions?: { code?: string } }[];
  };
  const codes = (body.errors ?? []).map((e) => e.extensions?.code).join(",");
  return {
    status: ex.status,
    outcome: `${codes} ${JSON.stringify(shape(body.data ?? null))}`,
    text: ex.text,
    request: ex.body ?? "",
  };
}

async function mcp(tool: string, args: Record<string, unknown>): Promise<Answer> {
  const ex = await send(app.url, {
    method: "POST",
    path: "/api/mcp",
    headers: {
      authorization: `Bearer ${b.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: tool, arguments: args },
    }),
  });
  const [message] = jsonRpcMessages(ex) ?? [];
  const m = message as
    | { error?: { code: number }; result?: { isError?: boolean; structuredContent?: unknown } }
    | undefined;
  const outcome = m?.error
    ? `error ${m.error.code}`
    : `isError ${m?.result?.isError === true} ${JSON.stringify(shape(m?.result?.structuredContent ?? null))}`;
  return { status: ex.status, outcome, text: ex.text, request: ex.body ?? "" };
}

async function sharePage(token: string): Promise<Answer> {
  const ex = await send(app.url, { method: "GET", path: `/share/${enc(token)}` });
  const outcome = String(ex.responseHeaders["content-type"] ?? "");
  return { status: ex.status, outcome, text: ex.text, request: ex.path };
}

async function documentDownload(id: string): Promise<Answer> {
  const ex = await send(app.url, {
    method: "GET",
    path: `/api/workspace/documents/${enc(id)}/download`,
    headers: { authorization: `Bearer ${b.key}` },
  });
  const parsed = parseJson(ex.text);
  const error = parsed.ok ? (parsed.value as { data?: { error?: string } }).data?.error : "not JSON";
  return { status: ex.status, outcome: String(error ?? "ok"), text: ex.text, request: ex.path };
}

const SHIPMENT_FIELDS = "__typename ... on Shipment { id reference } ... on ShipmentNotFound { __typename }";

const shipmentIds: IdForm[] = [
  { name: "shipment id", of: () => A.shipmentId!, nonexistent: () => "SHP-987654321" },
  { name: "container number", of: () => A.container!, nonexistent: () => unknownContainer },
];

const OBJECTS: ObjectRow[] = [
  {
    object: "shipment",
    ids: shipmentIds,
    ways: [
      { surface: "v1", name: "GET /shipments/{id}", ask: (id) => v1("GET", `/shipments/${enc(id)}`) },
      {
        surface: "v1",
        name: "GET /shipments/{id}?include=full",
        ask: (id) => v1("GET", `/shipments/${enc(id)}?include=full`),
      },
      {
        surface: "v1",
        name: "PATCH /shipments/{id}",
        ask: (id) => v1("PATCH", `/shipments/${enc(id)}`, { customer: "B Customer" }),
      },
      { surface: "v1", name: "DELETE /shipments/{id}", ask: (id) => v1("DELETE", `/shipments/${enc(id)}`) },
      {
        surface: "v1",
        name: "POST /shipments/{id}/share",
        ask: (id) => v1("POST", `/shipments/${enc(id)}/share`),
      },
      {
        surface: "v1",
        name: "DELETE /shipments/{id}/share",
        ask: (id) => v1("DELETE", `/shipments/${enc(id)}/share`),
      },
      {
        surface: "v1",
        name: "POST /shipments/retry-failed",
        ask: (id) => v1("POST", "/shipments/retry-failed", { shipment_ids: [id] }),
      },
      {
        surface: "graphql",
        name: "shipment(id)",
        ask: (id) => gql("query($id: String!) { shipment(id: $id) { id reference } }", { id }),
      },
      {
        surface: "graphql",
        name: "updateShipment(id)",
        ask: (id) =>
          gql(
            `mutation($id: String!) { updateShipment(id: $id, customer: "B Customer") { ${SHIPMENT_FIELDS} } }`,
            { id },
          ),
      },
      {
        surface: "graphql",
        name: "untrackShipment(id)",
        ask: (id) => gql("mutation($id: String!) { untrackShipment(id: $id) { __typename } }", { id }),
      },
      {
        surface: "graphql",
        name: "shareShipment(id)",
        ask: (id) =>
          gql("mutation($id: String!) { shareShipment(id: $id) { __typename ... on ShareLink { token } } }", {
            id,
          }),
      },
      {
        surface: "graphql",
        name: "unshareShipment(id)",
        ask: (id) => gql("mutation($id: String!) { unshareShipment(id: $id) { __typename } }", { id }),
      },
      {
        surface: "graphql",
        name: "retryFailedShipments(shipmentIds)",
        ask: (id) =>
          gql(
            "mutation($id: String!) { retryFailedShipments(shipmentIds: [$id]) { examined queued skipped } }",
            { id },
          ),
      },
      {
        surface: "graphql",
        name: "shipmentSearch(filter.reference)",
        ask: (id) =>
          gql("query($r: String) { shipmentSearch(filter: { reference: $r }) { total items { id } } }", {
            r: id,
          }),
      },
      {
        surface: "mcp",
        name: "get_shipment_status",
        ask: (id) => mcp("get_shipment_status", { reference: id }),
      },
      {
        surface: "mcp",
        name: "get_shipment_timeline",
        ask: (id) => mcp("get_shipment_timeline", { reference: id }),
      },
      {
        surface: "mcp",
        name: "get_refresh_schedule",
        ask: (id) => mcp("get_refresh_schedule", { reference: id }),
      },
      { surface: "mcp", name: "list_documents", ask: (id) => mcp("list_documents", { reference: id }) },
      {
        surface: "mcp",
        name: "list_my_shipments(filter.reference)",
        ask: (id) => mcp("list_my_shipments", { filter: { reference: id } }),
      },
      { surface: "share", name: "GET /share/{id}", ask: (id) => sharePage(id) },
    ],
  },
  {
    object: "tracking history",
    ids: [{ name: "container number", of: () => A.container!, nonexistent: () => unknownContainer }],
    ways: [
      {
        surface: "compat",
        name: "GET /history?number",
        ask: (n) => compat(`/history?number=${enc(n)}&type=CT`),
      },
      {
        surface: "graphql",
        name: "trackingHistory(reference)",
        ask: (n) =>
          gql("query($r: String!) { trackingHistory(reference: $r) { reference lookups { id } } }", { r: n }),
      },
    ],
  },
  {
    object: "tracking lookup (history id)",
    ids: [{ name: "history id", of: () => A.lookupId!, nonexistent: () => "2000000000" }],
    ways: [
      {
        surface: "compat",
        name: "GET /history?id (A's number)",
        ask: (id) => compat(`/history?id=${id}&number=${A.container}&type=CT`),
      },
      {
        surface: "compat",
        name: "GET /history?id (B's own number)",
        ask: (id) => compat(`/history?id=${id}&number=${A.bContainer}&type=CT`),
      },
      {
        surface: "graphql",
        name: "trackingLookup(id)",
        ask: (id) => gql("query($id: Int!) { trackingLookup(id: $id) { id reference } }", { id: Number(id) }),
      },
    ],
  },
  {
    object: "customer",
    ids: [{ name: "customer name", of: () => A.customer!, nonexistent: () => "Nobody Such Customer" }],
    ways: [
      {
        surface: "graphql",
        name: "customers(search)",
        ask: (s) => gql("query($s: String) { customers(search: $s) { total items { id name } } }", { s }),
      },
      {
        surface: "graphql",
        name: "shipmentSearch(filter.customer)",
        ask: (s) =>
          gql("query($s: String) { shipmentSearch(filter: { customer: $s }) { total items { id } } }", { s }),
      },
      { surface: "mcp", name: "list_customers(search)", ask: (s) => mcp("list_customers", { search: s }) },
      {
        surface: "mcp",
        name: "list_my_shipments(filter.customer)",
        ask: (s) => mcp("list_my_shipments", { filter: { customer: s } }),
      },
    ],
  },
  {
    object: "share link",
    ids: [
      {
        name: "share token (A revoked it)",
        of: () => A.revokedToken!,
        nonexistent: () => A.revokedToken!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
      },
    ],
    ways: [
      { surface: "share", name: "GET /share/{token}", ask: (t) => sharePage(t) },
      {
        surface: "graphql",
        name: "sharedShipment(token)",
        ask: (t) => gql("query($t: String!) { sharedShipment(token: $t) { reference } }", { t }),
      },
    ],
  },
  {
    object: "webhook endpoint",
    ids: [{ name: "endpoint id", of: () => A.endpointId!, nonexistent: () => randomUUID() }],
    ways: [
      {
        surface: "graphql",
        name: "sendTestWebhook(id)",
        ask: (id) => gql("mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", { id }),
      },
      {
        surface: "graphql",
        name: "rotateWebhookSecret(id)",
        ask: (id) => gql("mutation($id: ID!) { rotateWebhookSecret(id: $id) { signingSecret } }", { id }),
      },
      {
        surface: "graphql",
        name: "setWebhookEndpointEnabled(id)",
        ask: (id) =>
          gql("mutation($id: ID!) { setWebhookEndpointEnabled(id: $id, enabled: false) { id enabled } }", {
            id,
          }),
      },
      {
        surface: "graphql",
        name: "webhookDeliveries(endpointId)",
        ask: (id) => gql("query($id: ID) { webhookDeliveries(endpointId: $id) { id event } }", { id }),
      },
    ],
  },
  {
    object: "API key",
    ids: [
      { name: "owner's key id", of: () => a.keyId, nonexistent: () => randomUUID() },
      { name: "teammate's key id", of: () => aMate.keyId, nonexistent: () => randomUUID() },
    ],
    ways: [
      {
        surface: "graphql",
        name: "revokeApiKey(id)",
        ask: (id) => gql("mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }", { id }),
      },
    ],
  },
  {
    object: "workspace document",
    ids: [{ name: "document id", of: () => A.documentId!, nonexistent: () => randomUUID() }],
    ways: [
      {
        surface: "v1",
        name: "GET /api/workspace/documents/{id}/download",
        ask: (id) => documentDownload(id),
      },
      {
        surface: "graphql",
        name: "workspaceDocument(id)",
        ask: (id) => gql("query($id: ID!) { workspaceDocument(id: $id) { id name sha256 } }", { id }),
      },
      {
        surface: "graphql",
        name: "attachDocument(id)",
        ask: (id) =>
          gql('mutation($id: ID!) { attachDocument(id: $id, shipments: ["SHP-1"]) { id } }', { id }),
      },
      {
        surface: "graphql",
        name: "deleteDocument(id)",
        ask: (id) => gql("mutation($id: ID!) { deleteDocument(id: $id) }", { id }),
      },
      { surface: "mcp", name: "get_document_meta(id)", ask: (id) => mcp("get_document_meta", { id }) },
    ],
  },
  {
    object: "support ticket",
    ids: [
      // B has a TCK-1 of its own: A's second ticket is a number B does not have.
      { name: "ticket number", of: () => "TCK-2", nonexistent: () => "TCK-98765" },
    ],
    ways: [
      {
        surface: "graphql",
        name: "ticket(ticketNumber)",
        ask: (n) => gql("query($n: String!) { ticket(ticketNumber: $n) { id subject } }", { n }),
      },
      {
        surface: "graphql",
        name: "replyToTicket(ticketNumber)",
        ask: (n) =>
          gql('mutation($n: String!) { replyToTicket(ticketNumber: $n, body: "hi") { id } }', { n }),
      },
      {
        surface: "mcp",
        name: "get_ticket_status",
        ask: (n) => mcp("get_ticket_status", { ticketNumber: n }),
      },
    ],
  },
  {
    object: "support ticket (row id)",
    ids: [{ name: "ticket id", of: () => A.ticketId!, nonexistent: () => randomUUID() }],
    ways: [
      {
        surface: "graphql",
        name: "answerTicket(id)",
        ask: (id) => gql('mutation($id: ID!) { answerTicket(id: $id, body: "x") { id } }', { id }),
      },
    ],
  },
  {
    object: "quote request",
    ids: [{ name: "request number", of: () => "RFQ-2", nonexistent: () => "RFQ-98765" }],
    ways: [
      {
        surface: "graphql",
        name: "quoteRequest(requestNumber)",
        ask: (n) => gql("query($n: String!) { quoteRequest(requestNumber: $n) { id commodity } }", { n }),
      },
      {
        surface: "graphql",
        name: "requestBooking(requestNumber)",
        ask: (n) => gql("mutation($n: String!) { requestBooking(requestNumber: $n) { id } }", { n }),
      },
    ],
  },
];

/** B's own lists and dashboards, which must show none of A's values whatever filter is sent. */
const LISTS: Way[] = [
  { surface: "v1", name: "GET /shipments", ask: () => v1("GET", "/shipments?pageSize=100") },
  {
    surface: "v1",
    name: "GET /shipments?updated_since",
    ask: () => v1("GET", "/shipments?updated_since=2000-01-01T00:00:00Z"),
  },
  { surface: "v1", name: "GET /account/usage", ask: () => v1("GET", "/account/usage") },
  {
    surface: "compat",
    name: "GET /history (B's number)",
    ask: () => compat(`/history?number=${A.bContainer}&type=CT`),
  },
  {
    surface: "graphql",
    name: "viewer",
    ask: () =>
      gql("{ viewer { organization { id name users { id email } apiKeys { id } } user { id } } }", {}),
  },
  {
    surface: "graphql",
    name: "shipments",
    ask: () => gql("{ shipments(pageSize: 100) { total items { id reference customer { name } } } }", {}),
  },
  {
    surface: "graphql",
    name: "shipmentsUpdatedSince",
    ask: () => gql('{ shipmentsUpdatedSince(since: "2000-01-01T00:00:00Z") { items { id reference } } }', {}),
  },
  { surface: "graphql", name: "customers", ask: () => gql("{ customers { total items { id name } } }", {}) },
  { surface: "graphql", name: "webhookEndpoints", ask: () => gql("{ webhookEndpoints { id url } }", {}) },
  { surface: "graphql", name: "webhookDeliveries", ask: () => gql("{ webhookDeliveries { id body } }", {}) },
  { surface: "graphql", name: "accountUsage", ask: () => gql("{ accountUsage { __typename } }", {}) },
  { surface: "mcp", name: "list_my_shipments", ask: () => mcp("list_my_shipments", {}) },
  { surface: "mcp", name: "list_customers", ask: () => mcp("list_customers", {}) },
  { surface: "mcp", name: "get_team", ask: () => mcp("get_team", {}) },
  {
    surface: "graphql",
    name: "workspaceDocuments",
    ask: () => gql("{ workspaceDocuments { id name } }", {}),
  },
  { surface: "graphql", name: "tickets", ask: () => gql("{ tickets { id subject } }", {}) },
  { surface: "graphql", name: "quoteRequests", ask: () => gql("{ quoteRequests { id commodity } }", {}) },
  { surface: "mcp", name: "get_quote_request_status", ask: () => mcp("get_quote_request_status", {}) },
];

/** A's values that must never reach B, except the one B itself sent in the request. */
const secretsOfA = () =>
  [
    A.orgName,
    A.shipmentId,
    A.container,
    A.customer,
    A.endpointUrl,
    A.token,
    A.revokedToken,
    A.email,
    A.mateEmail,
    A.endpointId,
    A.deliveryId,
    A.documentId,
    A.documentName,
    A.ticketId,
    A.ticketSubject,
    A.commodity,
    a.keyId,
    aMate.keyId,
    a.userId,
    aMate.userId,
  ].filter((s): s is string => typeof s === "string" && s.length > 0);

beforeAll(async () => {
  app = await startTestApp({ clock, env: { ...FUZZ_ENV, QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
  const { known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 3,
    unknown: 1,
  });
  unknownContainer = unknown[0]!;
  a = await app.fixtures.organization();
  aMate = await app.fixtures.teammate(a.organizationId);
  b = await app.fixtures.organization({ plan: "custom" });
  const asA = (method: string, path: string, body?: unknown, key = a.key) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  // A: two shipments (one by the teammate), a customer, a share link and a revoked one, history.
  // Shipment numbers and history ids are counted per organisation, so B's SHP-1 and history id 1 are
  // B's own: A's objects are asked for by numbers B does not have (A's SHP-2 and A's newest id).
  A.container = known[0]!;
  expect((await asA("GET", `/api/v1/container/${known[1]}`, undefined, aMate.key)).status).toBe(200);
  expect((await asA("GET", `/api/v1/container/${known[0]}`)).status).toBe(200);
  expect((await asA("GET", `/compat/tracking?number=${known[0]}`)).body.status).toBe("success");
  A.customer = "Acme Secret Freight";
  expect((await asA("PATCH", `/api/v1/shipments/${known[0]}`, { customer: A.customer })).status).toBe(200);
  const read = await asA("GET", `/api/v1/shipments/${known[0]}`);
  A.shipmentId = String(read.body.data?.name ?? "");
  expect(A.shipmentId).toBe("SHP-2");
  const revoked = await asA("POST", `/api/v1/shipments/${known[1]}/share`);
  A.revokedToken = String(revoked.body.token ?? revoked.body.data?.token ?? "");
  await asA("DELETE", `/api/v1/shipments/${known[1]}/share`, undefined, aMate.key);
  const shared = await asA("POST", `/api/v1/shipments/${known[0]}/share`);
  A.token = String(shared.body.token ?? shared.body.data?.token ?? "");
  const history = await graphql(
    app,
    a.key,
    "query($r: String!) { trackingHistory(reference: $r) { lookups { id } } }",
    { r: known[0] },
  );
  const lookups = (history.body.data as { trackingHistory: { lookups: { id: number }[] } }).trackingHistory
    .lookups;
  A.lookupId = String(Math.max(...lookups.map((l) => l.id)));
  // A: a webhook endpoint with a queued delivery.
  A.endpointUrl = "http://127.0.0.1:9/acme-secret-hook";
  const created = await graphql(
    app,
    a.key,
    "mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }",
    {
      i: { url: A.endpointUrl, events: ["*"] },
    },
  );
  A.endpointId = (
    created.body.data as { createWebhookEndpoint: { endpoint: { id: string } } }
  ).createWebhookEndpoint.endpoint.id;
  const delivery = await graphql(app, a.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
    id: A.endpointId,
  });
  A.deliveryId = (delivery.body.data as { sendTestWebhook: { id: string } }).sendTestWebhook.id;
  const viewer = await graphql(
    app,
    a.key,
    "{ viewer { organization { name users { email } } user { email } } }",
  );
  const v = viewer.body.data?.viewer as {
    organization: { name: string; users: { email: string }[] };
    user: { email: string };
  };
  A.orgName = v.organization.name;
  A.email = v.user.email;
  A.mateEmail = v.organization.users.find((u) => u.email !== A.email)!.email;
  // B: one shipment of its own, so B's lists are not trivially empty.
  A.bContainer = known[2]!;
  expect((await asA("GET", `/api/v1/container/${known[2]}`, undefined, b.key)).status).toBe(200);
  // A: a workspace document, two support tickets and two quote requests (B has one of each, numbered 1).
  A.documentName = "acme-secret-bill.pdf";
  const uploaded = await uploadDocument(
    app,
    a.key,
    { bytes: pdfBytes(), name: A.documentName, type: "application/pdf" },
    { type: "BILL_OF_LADING", shipments: [A.shipmentId] },
  );
  A.documentId = uploaded.body.data.uploadDocument.id;
  A.ticketSubject = "Acme secret ticket";
  A.commodity = "Acme secret commodity";
  const day = new Date(clock.now().getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
  const workspace = (key: string, subject: string, commodity: string) =>
    graphql(
      app,
      key,
      `mutation($s: String!, $c: String!, $d: String!) { openTicket(subject: $s, body: "b", type: QUESTION) { id }
        requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "40HC", quantity: 1, readyDate: $d, commodity: $c) { duplicate } }`,
      { s: subject, c: commodity, d: day },
    );
  await workspace(a.key, "first", "first commodity");
  const second = await workspace(a.key, A.ticketSubject, A.commodity);
  A.ticketId = (second.body.data as { openTicket: { id: string } }).openTicket.id;
  await workspace(b.key, "B's own", "B's own commodity");
  for (const [name, value] of Object.entries(A)) expect(value, `fixture ${name}`).not.toBe("");
}, 120_000);
afterAll(() => app?.stop());

describe("tenant isolation: B asks for A's objects on every surface", () => {
  it("answers every cell exactly as for a nonexistent id, never 403, never with A's data, and changes nothing of A's", async () => {
    const before = await organizationState(app, a.organizationId);
    const failures: string[] = [];
    let cells = 0;
    for (const row of OBJECTS) {
      for (const form of row.ids) {
        for (const way of row.ways) {
          cells++;
          // Past the key's minute window and retry-failed's 15-minute organisation lock, for both asks.
          clock.advance(16 * 60_000);
          const label = `${way.surface} ${way.name} on ${row.object} by ${form.name}`;
          const sent = form.of();
          const answer = await way.ask(sent);
          clock.advance(16 * 60_000);
          const baseline = await way.ask(form.nonexistent());
          if (answer.status === 403) failures.push(`${label}: 403 (a tenant's object must be "not found")`);
          if (answer.status !== baseline.status || answer.outcome !== baseline.outcome) {
            failures.push(
              `${label}: A's id answered ${answer.status} ${answer.outcome}, a nonexistent one ${baseline.status} ${baseline.outcome}\n    A's: ${answer.text.slice(0, 200)}\n    nonexistent: ${baseline.text.slice(0, 200)}`,
            );
          }
          const leaked = secretsOfA().filter(
            (s) => s !== sent && !answer.request.includes(s) && answer.text.includes(s),
          );
          if (leaked.length > 0)
            failures.push(
              `${label}: the answer contains A's ${leaked.join(", ")}: ${answer.text.slice(0, 200)}`,
            );
        }
      }
    }
    for (const way of LISTS) {
      cells++;
      clock.advance(61_000);
      const answer = await way.ask("");
      const label = `${way.surface} ${way.name} (B's own list)`;
      if (answer.status >= 400) failures.push(`${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
      const leaked = secretsOfA().filter((s) => answer.text.includes(s));
      if (leaked.length > 0)
        failures.push(`${label}: the answer contains A's ${leaked.join(", ")}: ${answer.text.slice(0, 200)}`);
    }
    const changed = changedTables(before, await organizationState(app, a.organizationId));
    console.info(`tenant-isolation matrix: ${cells} cells, ${failures.length} failing`);
    expect(changed, "A's stored state after B's requests").toEqual([]);
    expect(failures.join("\n")).toBe("");
  }, 180_000);
});
