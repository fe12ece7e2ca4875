/**
 * What a receiving side tells us about mail we sent (issue 43 item 2): a delivery-status notification
 * (RFC 3464, a "bounce") or an abuse feedback report (RFC 5965, a "complaint", what a mailbox
 * provider's feedback loop sends when a reader presses "this is spam"). Both arrive as ordinary mail at
 * the deployment's return path; the operator's mail server hands them to Quayside as they are.
 *
 * Only two verdicts stop mail to an address: a permanent failure (status 5.x.x, action `failed`) and a
 * complaint. A delay or a temporary failure (4.x.x) is the sender's retry to absorb, and stopping on it
 * would silence people over a full mailbox or a greylisting server.
 */
export type FeedbackVerdict = "hard_bounce" | "complaint";

export interface MailFeedback {
  verdict: FeedbackVerdict;
  address: string;
  /** What the receiving side said, in words a person can act on. */
  detail: string;
  /** The `X-Quayside-Notification` key of the mail it is about, when the report quotes its headers. */
  dedupeKey: string | null;
}

/** Why a message was not taken as a report: kept for the operator's answer, never stored. */
export type FeedbackIgnored =
  | { ignored: "not_a_report" }
  | { ignored: "temporary"; detail: string }
  | { ignored: "no_recipient" };

interface Part {
  headers: Map<string, string>;
  body: string;
}

const MAX_REPORT_CHARS = 1_000_000;
const ADDRESS = /[^\s<>;,"]+@[^\s<>;,"]+/;

/** The verdicts a report carries (one per failed recipient), or why it carries none. */
export function readMailFeedback(raw: string): MailFeedback[] | FeedbackIgnored {
  if (raw.length > MAX_REPORT_CHARS) return { ignored: "not_a_report" };
  const message = parsePart(raw.replace(/\r\n/g, "\n"));
  const type = message.headers.get("content-type") ?? "";
  const reportType = /report-type\s*=\s*"?([a-z-]+)"?/i.exec(type)?.[1]?.toLowerCase();
  if (!/^multipart\/report/i.test(type) || !reportType) return { ignored: "not_a_report" };
  const parts = childrenOf(message);
  const original = parts.find((p) => /^(message\/rfc822|text\/rfc822-headers)/i.test(contentType(p)));
  const originalHeaders = original ? parsePart(original.body).headers : new Map<string, string>();
  const dedupeKey = originalHeaders.get("x-quayside-notification")?.trim() || null;
  const originalTo = addressIn(originalHeaders.get("to"));

  if (reportType === "feedback-report") {
    const report = parts.find((p) => /^message\/feedback-report/i.test(contentType(p)));
    if (!report) return { ignored: "not_a_report" };
    const fields = fieldsOf(report.body)[0] ?? new Map<string, string>();
    const address = addressIn(fields.get("original-rcpt-to")) ?? originalTo;
    if (!address) return { ignored: "no_recipient" };
    const feedbackType = (fields.get("feedback-type") ?? "abuse").trim().toLowerCase();
    return [
      {
        verdict: "complaint",
        address,
        detail:
          feedbackType === "abuse"
            ? "the reader's mailbox provider reported a mail as spam"
            : `the reader's mailbox provider reported a mail (${feedbackType})`,
        dedupeKey,
      },
    ];
  }

  if (reportType !== "delivery-status") return { ignored: "not_a_report" };
  const status = parts.find((p) => /^message\/(global-)?delivery-status/i.test(contentType(p)));
  if (!status) return { ignored: "not_a_report" };
  // The first group is about the message (Reporting-MTA); each further one is about one recipient.
  const recipients = fieldsOf(status.body).filter((f) => f.has("final-recipient") || f.has("action"));
  const verdicts: MailFeedback[] = [];
  let temporary: string | null = null;
  for (const fields of recipients) {
    const action = (fields.get("action") ?? "").trim().toLowerCase();
    const code = /\b([245])\.\d{1,3}\.\d{1,3}\b/.exec(fields.get("status") ?? "")?.[0] ?? null;
    const diagnostic = (fields.get("diagnostic-code") ?? "").replace(/^\s*smtp\s*;\s*/i, "").trim();
    const detail = diagnostic ? `the receiving server said: ${diagnostic.slice(0, 300)}` : `status ${code}`;
    if (action !== "failed" || !code?.startsWith("5")) {
      if (action === "delayed" || code?.startsWith("4")) temporary = detail;
      continue;
    }
    const address = addressIn(fields.get("final-recipient")) ?? addressIn(fields.get("original-recipient"));
    const to = address ?? originalTo;
    if (!to) continue;
    verdicts.push({ verdict: "hard_bounce", address: to, detail, dedupeKey });
  }
  if (verdicts.length > 0) return verdicts;
  if (temporary) return { ignored: "temporary", detail: temporary };
  return recipients.length > 0 ? { ignored: "no_recipient" } : { ignored: "not_a_report" };
}

/** Suppressions are kept by the address as a mailbox provider compares it. */
export function suppressionAddress(address: string): string {
  return address.trim().toLowerCase();
}

function addressIn(value: string | undefined): string | null {
  if (!value) return null;
  // `rfc822; user@example.com` (DSN address type) or `<user@example.com>` or `Name <user@…>`.
  const match = ADDRESS.exec(value.replace(/^\s*rfc822\s*;/i, ""));
  return match ? suppressionAddress(match[0]) : null;
}

function contentType(part: Part): string {
  return (part.headers.get("content-type") ?? "text/plain").trim();
}

/** Headers unfolded and lower-cased (the last of a repeated header wins), and the body after them. */
function parsePart(text: string): Part {
  const split = text.indexOf("\n\n");
  const head = (split < 0 ? text : text.slice(0, split)).replace(/\n[ \t]+/g, " ");
  const body = split < 0 ? "" : text.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function childrenOf(part: Part): Part[] {
  const boundary = /boundary\s*=\s*"?([^";\n]+)"?/i.exec(part.headers.get("content-type") ?? "")?.[1];
  if (!boundary) return [];
  const delimiter = `--${boundary.trim()}`;
  return part.body
    .split(delimiter)
    .slice(1)
    .filter((chunk) => !chunk.startsWith("--"))
    .map((chunk) => parsePart(chunk.replace(/^[ \t]*\n/, "")));
}

/** A delivery-status or feedback-report body: groups of `Field: value` lines separated by blank lines. */
function fieldsOf(body: string): Map<string, string>[] {
  return body
    .split(/\n\s*\n/)
    .map((group) => parsePart(`${group.trim()}\n\n`).headers)
    .filter((fields) => fields.size > 0);
}
