/**
 * Issue 43 item 5: tickets and quote requests mail both sides, through a real SMTP server on loopback
 * on one clock: the operator hears of new tickets and requests, the customer of answers, status
 * changes, quotes (and their expiry), declines with the reason; "40HQ" is the trade's 40HC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { type SmtpReceiver, startSmtpServer } from "../support/smtp";

const PUBLIC_URL = "https://track.example.com";

async function drain(worker: { runOnce(): Promise<{ full: boolean }> }) {
  for (let i = 0; i < 50 && (await worker.runOnce()).full; i++);
}

describe("tickets and quotes mail both sides", () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  let operator: OrgWithKey;
  let customer: OrgWithKey;
  const clock = new ManualClock("2026-11-22T10:00:00Z");
  const addressOf = async (key: string) =>
    (
      (await graphql(app, key, "{ notificationPreferences { email } }")).body.data!
        .notificationPreferences as {
        email: string;
      }
    ).email;
  const send = async () => {
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
  };
  const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({
      clock,
      env: { QUAYSIDE_WORKERS: "off", SMTP_URL: smtp.url, QUAYSIDE_PUBLIC_URL: PUBLIC_URL },
    });
    operator = await app.fixtures.organization({ operator: true });
    customer = await app.fixtures.organization();
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("mails a new ticket to the operator and the answer and status to the customer", async () => {
    const [operatorMail, customerMail] = [await addressOf(operator.key), await addressOf(customer.key)];
    const opened = await graphql(
      app,
      customer.key,
      `mutation { openTicket(subject: "Box not released", body: "The terminal says there is a hold.", type: INCIDENT) { id ticketNumber } }`,
    );
    expect(opened.body.errors).toBeUndefined();
    const { id, ticketNumber } = opened.body.data!.openTicket as { id: string; ticketNumber: string };
    await send();
    expect(to(operatorMail).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^New ticket from Org .+: Box not released$/),
    ]);
    expect(to(operatorMail)[0]!.text).toContain("The terminal says there is a hold.");
    expect(to(operatorMail)[0]!.text).toContain(`${PUBLIC_URL}/dashboard/operations/tickets`);

    const answered = await graphql(
      app,
      operator.key,
      `mutation($id: ID!) { answerTicket(id: $id, body: "The customs hold was lifted this morning.") { status } }`,
      { id },
    );
    expect(answered.body.errors).toBeUndefined();
    await graphql(
      app,
      operator.key,
      `mutation($id: ID!) { setTicketStatus(id: $id, status: SOLVED) { status } }`,
      { id },
    );
    await send();
    const mine = to(customerMail);
    expect(mine.map((m) => m.subject)).toEqual([
      `Support answered your ticket ${ticketNumber}: Box not released`,
      `Your ticket ${ticketNumber} is now solved`,
    ]);
    expect(mine[0]!.text).toContain("The customs hold was lifted this morning.");
    expect(mine[0]!.text).toContain(`Open the ticket: ${PUBLIC_URL}/dashboard/tickets/${ticketNumber}`);
    expect(mine[0]!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    for (const mail of [...mine, ...to(operatorMail)]) {
      // Links taken out: a signed token is not prose.
      expect(mail.text.replace(/https?:\/\/\S+/g, "")).not.toMatch(
        /\b(SOLVED|PENDING|INCIDENT|[0-9a-f]{8}-[0-9a-f]{4})\b/,
      );
      expect(mail.html).toMatch(/^<!doctype html>/);
    }
  });

  it("accepts 40HQ as a 40HC and mails the request, the quote, its expiry reminder and a decline with its reason", async () => {
    smtp.received.length = 0;
    const [operatorMail, customerMail] = [await addressOf(operator.key), await addressOf(customer.key)];
    const ask = (containerType: string, commodity: string) =>
      graphql(
        app,
        customer.key,
        `mutation($c: String!, $m: String!) { requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: $c, quantity: 2, readyDate: "2026-12-20", commodity: $m) { request { id requestNumber containerType } } }`,
        { c: containerType, m: commodity },
      );
    const asked = await ask("40HQ", "Furniture");
    expect(asked.body.errors).toBeUndefined();
    const request = (
      asked.body.data!.requestQuote as {
        request: { id: string; requestNumber: string; containerType: string };
      }
    ).request;
    expect(request.containerType).toBe("40HC");
    for (const alias of ["40' HC", "45G1"]) {
      const other = await ask(alias, `Furniture ${alias}`);
      expect(other.body.errors, alias).toBeUndefined();
    }
    await send();
    expect(to(operatorMail).map((m) => m.subject)).toContain(
      `Quote request ${request.requestNumber}: 2 x 40' high cube from Shanghai, China to Rotterdam, Netherlands`,
    );

    const validUntil = new Date(clock.now().getTime() + 5 * 86_400_000);
    const quoted = await graphql(
      app,
      operator.key,
      `mutation($id: ID!, $v: DateTime!) { quoteFreight(id: $id, total: 2450, currency: "USD", validUntil: $v, carrierScac: "MSCU", transitDays: 32) { status } }`,
      { id: request.id, v: validUntil.toISOString() },
    );
    expect(quoted.body.errors).toBeUndefined();
    await send();
    const quoteMail = to(customerMail).find((m) =>
      m.subject.startsWith(`Your quote ${request.requestNumber}`),
    );
    expect(quoteMail?.subject).toBe(`Your quote ${request.requestNumber}: USD 2450.00`);
    expect(quoteMail!.text).toContain("with MSC");
    expect(quoteMail!.text).not.toMatch(/\bMSCU\b/);

    // Two days before it expires, once.
    clock.set(validUntil.getTime() - 49 * 3_600_000);
    await send();
    expect(to(customerMail).filter((m) => m.subject.includes("expires"))).toEqual([]);
    clock.set(validUntil.getTime() - 47 * 3_600_000);
    await send();
    await send();
    expect(to(customerMail).filter((m) => m.subject.includes("expires"))).toHaveLength(1);

    const second = await ask("20DV", "Machine parts");
    const secondId = (second.body.data!.requestQuote as { request: { id: string; requestNumber: string } })
      .request;
    await graphql(
      app,
      operator.key,
      `mutation($id: ID!) { declineQuoteRequest(id: $id, reason: "No space on that week's sailings.") { status } }`,
      {
        id: secondId.id,
      },
    );
    await send();
    const declined = to(customerMail).find(
      (m) => m.subject === `Quote request ${secondId.requestNumber} declined`,
    );
    expect(declined?.text).toContain("No space on that week's sailings.");
  }, 120_000);
});
