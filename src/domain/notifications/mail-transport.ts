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
