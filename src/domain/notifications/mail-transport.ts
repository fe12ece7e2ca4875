/** One e-mail as a transport sends it. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** The de-duplication key, sent as the header `X-Quayside-Notification` so a receiver can drop a copy. */
  dedupeKey: string;
  /** Further headers (`List-Unsubscribe`, `List-Unsubscribe-Post`). */
  headers?: Record<string, string>;
}

/**
 * Where mail goes: an SMTP server (`src/upstream/mail`) or the database outbox, where the message row
 * itself is what the dashboard reads. `send` resolves when the message is accepted, throws otherwise.
 */
export interface MailTransport {
  readonly kind: "smtp" | "outbox";
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  close?(): Promise<void>;
}

/** No SMTP server configured: accepting is storing, and the row is already stored. */
export const outboxTransport: MailTransport = {
  kind: "outbox",
  send: async () => ({ messageId: null }),
};

/**
 * The receiving server refused the recipient for good (a 5xx reply to RCPT TO: no such mailbox, the
 * domain takes no mail). Retrying cannot help, so the address is suppressed at once, like a bounce
 * report would suppress it later. A refusal of the whole message or a 4xx reply is a plain error: retried.
 */
export class MailRecipientRefused extends Error {
  constructor(
    readonly address: string,
    /** The server's reply, in its own words (`550 5.1.1 <x@y>: Recipient address rejected`). */
    readonly reply: string,
  ) {
    super(`the receiving server refused ${address}: ${reply}`);
    this.name = "MailRecipientRefused";
  }
}
