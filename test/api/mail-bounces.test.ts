/**
 * Issue 43 item 2, bounces and complaints, through a real SMTP server on loopback: an address whose
 * server refuses it for good stops receiving, and so does one whose reader reports spam; its owner is
 * told in GraphQL and on the dashboard's notifications page and can resume; a temporary failure, a
 * report about an address never mailed, or a report from anyone but the operator changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/domain/people/passwords";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { type SmtpReceiver, startSmtpServer } from "../support/smtp";

const STOP = `{ notificationPreferences { email deliveryStop { reason detail explanation } } }`;
const FEEDBACK = `mutation($report: String!) {
  recordMailFeedback(report: $report) { recorded { verdict address detail } ignored }
}`;

async function drain(worker: { runOnce(): Promise<{ full: boolean }> }) {
  for (let i = 0; i < 50 && (await worker.runOnce()).full; i++);
}

/** A delivery-status notification as a mail server writes it (RFC 3464), quoting our headers. */
function bounceReport(to: string, status: string, action: string, dedupeKey: string): string {
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    "To: bounces@track.example.com",
    "Subject: Undelivered Mail Returned to Sender",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B0UND"',
    "",
    "--B0UND",
    "Content-Type: text/plain",
    "",
    "I'm sorry to have to inform you that your message could not be delivered.",
    "",
    "--B0UND",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "",
    `Final-Recipient: rfc822; ${to}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${status.startsWith("5") ? "550" : "452"} ${status} mailbox ${status.startsWith("5") ? "unknown" : "full"}`,
    "",
    "--B0UND",
    "Content-Type: text/rfc822-headers",
    "",
    `To: ${to}`,
    "Subject: Your ticket",
    `X-Quayside-Notification: ${dedupeKey}`,
    "",
    "--B0UND--",
    "",
  ].join("\r\n");
}

/** An abuse report from a mailbox provider's feedback loop (RFC 5965). */
function complaintReport(to: string): string {
  return [
    "From: feedbackloop@mailbox.example",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="ARF"',
    "",
    "--ARF",
    "Content-Type: text/plain",
    "",
    "This is an email abuse report.",
    "--ARF",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: ExampleFBL/1.0",
    "Version: 1",
    `Original-Rcpt-To: <${to}>`,
    "",
    "--ARF",
    "Content-Type: message/rfc822",
    "",
    `To: ${to}`,
    "Subject: New ticket",
    "",
    "body",
    "--ARF--",
    "",
  ].join("\r\n");
}

describe("bounces and complaints stop mail to an address until its owner resumes it", () => {
  const refuses = new Set<string>();
  let smtp: SmtpReceiver;
  let app: TestApp;
  let operator: OrgWithKey;
  let customer: OrgWithKey;
  let customerMail: string;
  let operatorMail: string;
  const clock = new ManualClock("2026-11-22T10:00:00Z");
  const send = async () => {
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
  };
  const stopOf = async (key: string) =>
    (
      (await graphql(app, key, STOP)).body.data!.notificationPreferences as {
        deliveryStop: { reason: string; detail: string; explanation: string } | null;
      }
    ).deliveryStop;
  const outbox = () => app.services.db.prisma.mailMessage.findMany({ orderBy: { createdAt: "asc" } });
  const openTicket = async (subject: string) => {
    const opened = await graphql(
      app,
      customer.key,
      `mutation($subject: String!) { openTicket(subject: $subject, body: "Where is my box?", type: INCIDENT) { id } }`,
      { subject },
    );
    expect(opened.body.errors).toBeUndefined();
    return (opened.body.data!.openTicket as { id: string }).id;
  };
  const answer = (id: string, body: string) =>
    graphql(
      app,
      operator.key,
      `mutation($id: ID!, $body: String!) { answerTicket(id: $id, body: $body) { status } }`,
      {
        id,
        body,
      },
    );

  /** Signs the organisation's user in to the dashboard through its sign-in form; the session cookie. */
  const signIn = async (who: OrgWithKey, email: string) => {
    const password = "a long enough password 43";
    await app.services.db.prisma.user.update({
      where: { id: who.userId },
      data: { passwordHash: await hashPassword(password) },
    });
    const form = await fetch(`${app.url}/dashboard/sign-in`);
    const session = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
    const res = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
    });
    expect(res.status).toBe(303);
    return (res.headers.get("set-cookie") ?? session).split(";")[0]!;
  };

  beforeAll(async () => {
    smtp = await startSmtpServer({ refuses });
    app = await startTestApp({
      clock,
      env: { QUAYSIDE_WORKERS: "off", SMTP_URL: smtp.url, QUAYSIDE_PUBLIC_URL: "https://track.example.com" },
    });
    operator = await app.fixtures.organization({ operator: true });
    customer = await app.fixtures.organization();
    const emailOf = async (key: string) =>
      ((await graphql(app, key, STOP)).body.data!.notificationPreferences as { email: string }).email;
    customerMail = await emailOf(customer.key);
    operatorMail = await emailOf(operator.key);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("a mailbox refused at delivery bounces once, is told in words, and gets nothing more until resumed", async () => {
    refuses.add(customerMail.toLowerCase());
    const ticket = await openTicket("Box not released");
    expect((await answer(ticket, "The hold was lifted.")).body.errors).toBeUndefined();
    await send();
    const bounced = (await outbox()).filter((m) => m.toAddress === customerMail);
    expect(bounced.map((m) => m.status)).toEqual(["bounced"]);
    expect(bounced[0]!.attempts).toBe(1);
    expect(bounced[0]!.lastError).toMatch(/refused the address: .*User unknown/);
    expect(await stopOf(customer.key)).toEqual({
      reason: "hard_bounce",
      detail: expect.stringContaining("550"),
      explanation: expect.stringContaining("stopped sending"),
    });

    // The mailbox works again, but nothing is sent to it until its owner says so.
    refuses.clear();
    clock.advance(60_000);
    expect((await answer(ticket, "Any news?")).body.errors).toBeUndefined();
    await send();
    expect(smtp.received.filter((m) => m.to.includes(customerMail))).toHaveLength(0);
    const held = (await outbox()).filter((m) => m.toAddress === customerMail).at(-1)!;
    expect(held.status).toBe("cancelled");
    expect(held.lastError).toBe("not sent: mail to the address bounced on 2026-11-22");

    const resumed = await graphql(app, customer.key, `mutation { resumeMail { deliveryStop { reason } } }`);
    expect(resumed.body.errors).toBeUndefined();
    expect(resumed.body.data!.resumeMail).toEqual({ deliveryStop: null });
    clock.advance(60_000);
    expect((await answer(ticket, "Released at 14:00.")).body.errors).toBeUndefined();
    await send();
    expect(smtp.received.filter((m) => m.to.includes(customerMail))).toHaveLength(1);
  });

  it("a bounce report from the mail server stops mail to the address it names; a delay changes nothing", async () => {
    await openTicket("Customs paperwork");
    await send();
    const mailed = (await outbox()).filter((m) => m.toAddress === operatorMail).at(-1)!;
    expect(mailed.status).toBe("sent");

    const delayed = await graphql(app, operator.key, FEEDBACK, {
      report: bounceReport(operatorMail, "4.2.2", "delayed", mailed.dedupeKey),
    });
    expect(delayed.body.data!.recordMailFeedback).toEqual({ recorded: [], ignored: "temporary" });
    expect(await stopOf(operator.key)).toBeNull();

    const failed = await graphql(app, operator.key, FEEDBACK, {
      report: bounceReport(operatorMail, "5.1.1", "failed", mailed.dedupeKey),
    });
    expect(failed.body.data!.recordMailFeedback).toEqual({
      recorded: [
        {
          verdict: "hard_bounce",
          address: operatorMail.toLowerCase(),
          detail: expect.stringContaining("5.1.1"),
        },
      ],
      ignored: null,
    });
    expect((await app.services.db.prisma.mailMessage.findUnique({ where: { id: mailed.id } }))!.status).toBe(
      "bounced",
    );
    expect((await stopOf(operator.key))!.reason).toBe("hard_bounce");
    const before = smtp.received.length;
    await openTicket("Another question");
    await send();
    expect(smtp.received.slice(before).filter((m) => m.to.includes(operatorMail))).toHaveLength(0);
    await graphql(app, operator.key, `mutation { resumeMail { email } }`);
  });

  it("a spam complaint stops mail to the reader, and the dashboard tells its owner with a way back", async () => {
    const complained = await graphql(app, operator.key, FEEDBACK, { report: complaintReport(customerMail) });
    expect(complained.body.data!.recordMailFeedback).toMatchObject({
      recorded: [{ verdict: "complaint", address: customerMail.toLowerCase() }],
    });
    expect((await stopOf(customer.key))!.explanation).toMatch(/reported one of our mails as spam/);

    const cookie = await signIn(customer, customerMail);
    const page = await fetch(`${app.url}/dashboard/notifications`, { headers: { cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Mail stopped after a spam report");
    expect(html).toContain(`Resume mail to ${customerMail}`);
    await graphql(app, customer.key, `mutation { resumeMail { email } }`);
    const after = await fetch(`${app.url}/dashboard/notifications`, { headers: { cookie } });
    expect(await after.text()).not.toContain("Mail stopped");
  });

  it("only the operator hands over reports, and only addresses this deployment mailed can be stopped", async () => {
    const byCustomer = await graphql(app, customer.key, FEEDBACK, { report: complaintReport(customerMail) });
    expect(byCustomer.body.data?.recordMailFeedback ?? null).toBeNull();
    expect(byCustomer.body.errors?.[0]?.message).toBeTruthy();
    expect(await stopOf(customer.key)).toBeNull();

    const stranger = await graphql(app, operator.key, FEEDBACK, {
      report: complaintReport("someone@else.example"),
    });
    expect(stranger.body.data!.recordMailFeedback).toEqual({ recorded: [], ignored: "unknown_address" });
    const junk = await graphql(app, operator.key, FEEDBACK, { report: "Subject: hello\r\n\r\nnot a report" });
    expect(junk.body.data!.recordMailFeedback).toEqual({ recorded: [], ignored: "not_a_report" });
    expect(await app.services.db.prisma.mailSuppression.count()).toBe(0);
  });
});
