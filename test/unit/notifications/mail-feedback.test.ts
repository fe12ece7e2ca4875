import { describe, expect, it } from "vitest";
import { readMailFeedback } from "../../../src/domain/notifications/mail-feedback";

/** A DSN with one group per recipient, written with bare LF line ends as some MTAs pipe it. */
const twoRecipients = `From: MAILER-DAEMON@mx.example.net
Content-Type: multipart/report; report-type="delivery-status";
\tboundary="=_b"

--=_b
Content-Type: text/plain

Delivery failed for some recipients.

--=_b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
Arrival-Date: Sun, 22 Nov 2026 10:00:00 +0000

Original-Recipient: rfc822;Ann@Example.com
Final-Recipient: rfc822; ann@example.com
Action: failed
Status: 5.2.1
Diagnostic-Code: smtp; 550 5.2.1 mailbox disabled

Final-Recipient: rfc822; bob@example.com
Action: delayed
Status: 4.4.1

--=_b--
`;

describe("reading what a receiving side reports about our mail", () => {
  it("takes a permanent failure per recipient and leaves a delayed one alone", () => {
    expect(readMailFeedback(twoRecipients)).toEqual([
      {
        verdict: "hard_bounce",
        address: "ann@example.com",
        detail: "the receiving server said: 550 5.2.1 mailbox disabled",
        dedupeKey: null,
      },
    ]);
  });

  it("calls a report of only temporary failures temporary, and anything else not a report", () => {
    const delayedOnly = twoRecipients.replace(
      /Action: failed\nStatus: 5.2.1/,
      "Action: delayed\nStatus: 4.2.2",
    );
    expect(readMailFeedback(delayedOnly)).toMatchObject({ ignored: "temporary" });
    expect(readMailFeedback("Subject: out of office\n\nI am away until Monday.")).toEqual({
      ignored: "not_a_report",
    });
    expect(
      readMailFeedback(
        twoRecipients.replace('report-type="delivery-status"', "report-type=disposition-notification"),
      ),
    ).toEqual({ ignored: "not_a_report" });
  });

  it("finds a complaint's reader in the quoted original when the report leaves Original-Rcpt-To out", () => {
    const arf = [
      'Content-Type: multipart/report; report-type=feedback-report; boundary="x"',
      "",
      "--x",
      "Content-Type: message/feedback-report",
      "",
      "Feedback-Type: abuse",
      "Version: 1",
      "",
      "--x",
      "Content-Type: message/rfc822",
      "",
      "To: Carla Reader <Carla@Example.org>",
      "X-Quayside-Notification: eta_changed:u:s:1",
      "",
      "hello",
      "--x--",
    ].join("\r\n");
    expect(readMailFeedback(arf)).toEqual([
      {
        verdict: "complaint",
        address: "carla@example.org",
        detail: "the reader's mailbox provider reported a mail as spam",
        dedupeKey: "eta_changed:u:s:1",
      },
    ]);
  });
});
