/**
 * The account workspace through GraphQL and MCP (issue 22, spec v1 section 4.4): support tickets
 * (opened and replied to by the organisation, answered by the operator), quote requests (requested,
 * de-duplicated within 30 days, quoted, expired, booked), and the four read-only tools over them and
 * over documents, called with the SDK client over HTTP and validated against their listed output
 * schemas. Another organisation's ticket, document or shipment is not found on every tool.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { pdfBytes, storedShipment, uploadDocument } from "../support/workspace";
import { callTool, httpClient, textOf } from "./support";

const DAY = 86_400_000;
const clock = new ManualClock(new Date("2026-11-26T09:00:00Z"));

let app: TestApp;
let a: OrgWithKey;
let b: OrgWithKey;
let operator: OrgWithKey;
let shipmentA: string;
let clientA: Client;
let clientB: Client;
let tools: Tool[];
const ajv = new Ajv({ strict: false, allErrors: true });

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_DOCUMENTS_DIR: `/tmp/quayside-mcp-docs-${process.pid}` },
  });
  a = await app.fixtures.organization();
  b = await app.fixtures.organization();
  operator = await app.fixtures.organization({ operator: true });
  shipmentA = await storedShipment(app, a, "MSCU1234566");
  clientA = await httpClient(app, a.key);
  clientB = await httpClient(app, b.key);
  tools = (await clientA.listTools()).tools;
}, 120_000);

afterAll(async () => {
  await clientA?.close();
  await clientB?.close();
  await app?.stop();
});

async function ask(key: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(app, key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, any>;
}

/** Calls a tool and checks a data answer against the tool's listed output schema. */
async function data(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  const validate = ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
  expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, any>;
}

async function notFound(client: Client, name: string, args: Record<string, unknown>) {
  const result = await callTool(client, name, args);
  expect(result.isError, name).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return textOf(result);
}

const TICKET = `ticketNumber status priority type relatedReference lastReplyBy lastReplyAt id
  replies { author authorName body }`;

describe("support tickets", () => {
  it("are opened by an organisation, numbered per organisation, answered by the operator", async () => {
    const opened = await ask(
      a.key,
      `mutation($s: String) { openTicket(subject: "ETA keeps moving", body: "Why?", type: INCIDENT, priority: HIGH, shipmentReference: $s) { ${TICKET} } }`,
      { s: shipmentA },
    );
    expect(opened.openTicket).toMatchObject({
      ticketNumber: "TCK-1",
      status: "NEW",
      priority: "HIGH",
      type: "INCIDENT",
      relatedReference: shipmentA,
      lastReplyBy: null,
    });
    // B's first ticket is its own TCK-1: numbers tell nothing about other organisations.
    const theirs = await ask(
      b.key,
      `mutation { openTicket(subject: "Hello", body: "Question", type: QUESTION) { ticketNumber priority } }`,
    );
    expect(theirs.openTicket).toEqual({ ticketNumber: "TCK-1", priority: "NORMAL" });

    expect((await graphql(app, a.key, `{ operatorTickets { id } }`)).body.errors?.[0]?.extensions?.code).toBe(
      "OPERATOR_REQUIRED",
    );
    const queue = await ask(operator.key, `{ operatorTickets(status: NEW) { id subject organizationName } }`);
    expect(queue.operatorTickets.map((t: { subject: string }) => t.subject).sort()).toEqual([
      "ETA keeps moving",
      "Hello",
    ]);
    clock.advance(60_000);
    const answered = await ask(
      operator.key,
      `mutation($id: ID!) { answerTicket(id: $id, body: "The carrier revised the schedule.") { ${TICKET} } }`,
      { id: opened.openTicket.id },
    );
    expect(answered.answerTicket).toMatchObject({
      status: "PENDING",
      lastReplyBy: "staff",
      replies: [
        { author: "staff", authorName: "Quayside support", body: "The carrier revised the schedule." },
      ],
    });
    const status = await data(clientA, "get_ticket_status", { ticketNumber: "tck 1" });
    expect(status).toEqual({
      ticketNumber: "TCK-1",
      subject: "ETA keeps moving",
      status: "pending",
      priority: "high",
      type: "incident",
      relatedReference: shipmentA,
      createdAt: "2026-11-26T09:00:00.000Z",
      updatedAt: "2026-11-26T09:01:00.000Z",
      lastReplyAt: "2026-11-26T09:01:00.000Z",
      lastReplyBy: "staff",
    });
    // B asks for TCK-1 and reads its own, never A's.
    expect((await data(clientB, "get_ticket_status", { ticketNumber: "TCK-1" })).subject).toBe("Hello");
    expect(await notFound(clientB, "get_ticket_status", { ticketNumber: "TCK-2" })).toBe(
      "Your organisation has no ticket TCK-2.",
    );
  });

  it("reopens on the customer's reply, closes only once solved, and takes nothing after closing", async () => {
    const reply = await ask(
      a.key,
      `mutation { replyToTicket(ticketNumber: "TCK-1", body: "Thanks, and now?") { status lastReplyBy } }`,
    );
    expect(reply.replyToTicket).toEqual({ status: "OPEN", lastReplyBy: "customer" });
    const { id } = (await ask(a.key, `{ ticket(ticketNumber: "TCK-1") { id } }`)).ticket;
    const early = await graphql(
      app,
      operator.key,
      `mutation($id: ID!) { setTicketStatus(id: $id, status: CLOSED) { status } }`,
      { id },
    );
    expect(early.body.errors?.[0]?.message).toBe("Only a solved ticket can be closed.");
    for (const status of ["SOLVED", "CLOSED"]) {
      await ask(
        operator.key,
        `mutation($id: ID!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { status } }`,
        { id, s: status },
      );
    }
    const late = await graphql(
      app,
      a.key,
      `mutation { replyToTicket(ticketNumber: "TCK-1", body: "Hello?") { status } }`,
    );
    expect(late.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      reason: "ticket_closed",
    });
    // B cannot reply to A's ticket by its row id nor see it by number through B's own key.
    const other = await graphql(
      app,
      b.key,
      `mutation($id: ID!) { answerTicket(id: $id, body: "x") { status } }`,
      { id },
    );
    expect(other.body.errors?.[0]?.extensions?.code).toBe("OPERATOR_REQUIRED");
  });

  it("refuses a shipment reference the organisation does not track", async () => {
    const { body } = await graphql(
      app,
      b.key,
      `mutation($s: String) { openTicket(subject: "x", body: "y", type: TASK, shipmentReference: $s) { id } }`,
      {
        s: "MSCU7654321",
      },
    );
    expect(body.errors?.[0]?.message).toBe("No shipment MSCU7654321 is tracked by your organisation.");
  });
});

const REQUEST = `requestNumber status origin destination containerType quantity readyDate commodity id
  quote { total currency validUntil carrierScac transitDays }`;

describe("quote requests", () => {
  let id: string;
  it("validates UN/LOCODEs, container types and the ready date", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ origin: "XXABC" }, "No port has the UN/LOCODE XXABC."],
      [
        { origin: "Shanghai" },
        "Shanghai is not a UN/LOCODE (two letters of country, three of place: CNSHA).",
      ],
      [{ containerType: "40ft" }, "40ft is not a container type"],
      [{ readyDate: "2026-02-30" }, "2026-02-30 is not a day shaped YYYY-MM-DD."],
      [{ readyDate: "2026-11-01" }, "The ready date is in the past."],
    ];
    for (const [change, message] of cases) {
      const { body } = await graphql(
        app,
        a.key,
        `mutation($o: String!, $c: String!, $r: String!) { requestQuote(origin: $o, destination: "NLRTM", containerType: $c, quantity: 2, readyDate: $r, commodity: "Furniture") { duplicate } }`,
        { o: "CNSHA", c: "40HC", r: "2027-01-20", ...renameKeys(change) },
      );
      expect(body.errors?.[0]?.message).toContain(message);
      expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
  });

  it("answers an identical request within 30 days with the first one", async () => {
    const ask1 = await ask(
      a.key,
      `mutation { requestQuote(origin: "cnsha", destination: "NLRTM", containerType: "40hc", quantity: 2, readyDate: "2027-01-20", commodity: "Flat-pack  furniture") { duplicate request { ${REQUEST} } } }`,
    );
    expect(ask1.requestQuote).toMatchObject({
      duplicate: false,
      request: {
        requestNumber: "RFQ-1",
        status: "PENDING",
        origin: "CNSHA",
        containerType: "40HC",
        quote: null,
      },
    });
    id = ask1.requestQuote.request.id;
    clock.advance(29 * DAY);
    const again = await ask(
      a.key,
      `mutation { requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "40HC", quantity: 2, readyDate: "2027-01-20", commodity: "flat-pack furniture") { duplicate request { requestNumber } } }`,
    );
    expect(again.requestQuote).toEqual({ duplicate: true, request: { requestNumber: "RFQ-1" } });
    clock.advance(-29 * DAY);
    // Another organisation's identical request is its own.
    const theirs = await ask(
      b.key,
      `mutation { requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "40HC", quantity: 2, readyDate: "2027-01-20", commodity: "Flat-pack furniture") { duplicate request { requestNumber } } }`,
    );
    expect(theirs.requestQuote).toEqual({ duplicate: false, request: { requestNumber: "RFQ-1" } });
  });

  it("is quoted by the operator, expires with its validity, and is booked once accepted", async () => {
    const validUntil = new Date(clock.now().getTime() + 7 * DAY).toISOString();
    const quoted = await ask(
      operator.key,
      `mutation($id: ID!, $v: DateTime!) { quoteFreight(id: $id, total: 4180.5, currency: "usd", validUntil: $v, carrierScac: "MSCU", transitDays: 31) { ${REQUEST} } }`,
      { id, v: validUntil },
    );
    expect(quoted.quoteFreight).toMatchObject({
      status: "QUOTED",
      quote: { total: 4180.5, currency: "USD", validUntil, carrierScac: "MSCU", transitDays: 31 },
    });
    const mine = await data(clientA, "get_quote_request_status");
    expect(mine).toMatchObject({ total: 1, hasMore: false });
    expect(mine.requests[0]).toEqual({
      id: "RFQ-1",
      status: "QUOTED",
      origin: "CNSHA",
      destination: "NLRTM",
      containerType: "40HC",
      quantity: 2,
      readyDate: "2027-01-20",
      commodity: "Flat-pack furniture",
      createdAt: "2026-11-26T09:01:00.000Z", // the tickets above moved the clock a minute
      updatedAt: expect.any(String),
      quote: { total: 4180.5, currency: "USD", validUntil, carrier: "MSCU", transitDays: 31 },
      declineReason: null,
      bookingReference: null,
    });
    // B sees only its own request, unquoted.
    const theirs = await data(clientB, "get_quote_request_status");
    expect(theirs.requests.map((r: { status: string; quote: unknown }) => [r.status, r.quote])).toEqual([
      ["PENDING", null],
    ]);

    clock.advance(8 * DAY);
    expect((await data(clientA, "get_quote_request_status")).requests[0].status).toBe("EXPIRED");
    const late = await graphql(app, a.key, `mutation { requestBooking(requestNumber: "RFQ-1") { status } }`);
    expect(late.body.errors?.[0]?.message).toMatch(/It is EXPIRED\.$/);

    const requoted = new Date(clock.now().getTime() + 3 * DAY).toISOString();
    await ask(
      operator.key,
      `mutation($id: ID!, $v: DateTime!) { quoteFreight(id: $id, total: 4300, currency: "USD", validUntil: $v, carrierScac: "MAEU", transitDays: 29) { status } }`,
      { id, v: requoted },
    );
    const booking = await ask(a.key, `mutation { requestBooking(requestNumber: "RFQ-1") { status } }`);
    expect(booking.requestBooking.status).toBe("BOOKING_REQUESTED");
    const booked = await ask(
      operator.key,
      `mutation($id: ID!) { markQuoteRequestBooked(id: $id, bookingReference: "MSC-BK-778") { status bookingReference } }`,
      {
        id,
      },
    );
    expect(booked.markQuoteRequestBooked).toEqual({ status: "BOOKED", bookingReference: "MSC-BK-778" });
    // The booking reference is in the tool's answer (issue 43).
    expect((await data(clientA, "get_quote_request_status")).requests[0]).toMatchObject({
      status: "BOOKED",
      quote: { carrier: "MAEU", total: 4300 },
      bookingReference: "MSC-BK-778",
      declineReason: null,
    });
  });
});

describe("identical quote requests at the same moment", () => {
  it("make one record between them", async () => {
    const q = `mutation { requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "20GP", quantity: 5, readyDate: "2027-01-25", commodity: "Rubber") { duplicate request { requestNumber } } }`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => ask(a.key, q)));
    expect(new Set(answers.map((x) => x.requestQuote.request.requestNumber))).toEqual(new Set(["RFQ-2"]));
    expect(answers.filter((x) => !x.requestQuote.duplicate)).toHaveLength(1);
  });
});

describe("document tools", () => {
  it("list and describe the organisation's documents, and answer another organisation's as not found", async () => {
    const bytes = pdfBytes("delivery order");
    const up = await uploadDocument(
      app,
      a.key,
      { bytes, name: "DO.pdf", type: "application/pdf" },
      { type: "DELIVERY_ORDER", shipments: [shipmentA] },
    );
    const doc = up.body.data.uploadDocument;
    const listed = await data(clientA, "list_documents", { reference: "MSCU 123456-6" });
    expect(listed).toEqual({
      shipmentId: shipmentA,
      reference: "MSCU1234566",
      total: 1,
      documents: [
        {
          id: doc.id,
          name: "DO.pdf",
          documentType: "delivery_order",
          fileName: "DO.pdf",
          contentType: "application/pdf",
          sizeBytes: bytes.length,
          source: "upload",
          uploadedBy: doc.uploadedBy,
          createdAt: doc.createdAt,
        },
      ],
    });
    const meta = await data(clientA, "get_document_meta", { id: doc.id });
    expect(meta).toEqual({
      ...listed.documents[0],
      sha256: doc.sha256,
      shipments: [{ shipmentId: shipmentA, reference: "MSCU1234566" }],
    });
    expect(JSON.stringify(meta)).not.toMatch(/download|http/);

    expect(await notFound(clientB, "get_document_meta", { id: doc.id })).toBe(
      `Your organisation has no document with the id ${doc.id}.`,
    );
    expect(await notFound(clientB, "list_documents", { reference: "MSCU1234566" })).toMatch(
      /is tracked by your organisation/,
    );
    await notFound(clientA, "get_document_meta", { id: "not-an-id" });
  });
});

function renameKeys(change: Record<string, unknown>): Record<string, unknown> {
  const names: Record<string, string> = { origin: "o", containerType: "c", readyDate: "r" };
  return Object.fromEntries(Object.entries(change).map(([k, v]) => [names[k] ?? k, v]));
}
