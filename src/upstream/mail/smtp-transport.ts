import nodemailer from "nodemailer";
import {
  MailRecipientRefused,
  type MailTransport,
  type OutgoingMail,
} from "../../domain/notifications/mail-transport";

/** nodemailer's error for a refused envelope: `EENVELOPE` with the server's reply code and text. */
interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  command?: unknown;
}

/** A 5xx reply to the recipient is permanent: our model's refusal. Anything else is thrown as it came. */
function refusalOf(error: unknown, to: string): unknown {
  const e = (typeof error === "object" && error !== null ? error : {}) as SmtpError;
  const permanent = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
  const atRecipient = e.code === "EENVELOPE" || (typeof e.command === "string" && /RCPT/i.test(e.command));
  if (!permanent || !atRecipient) return error;
  const reply = typeof e.response === "string" ? e.response.slice(0, 300) : `${e.responseCode}`;
  return new MailRecipientRefused(to, reply);
}

/**
 * Mail through an SMTP server named by a URL (`smtp://user:pass@host:587`, `smtps://host:465`;
 * nodemailer's URL form, STARTTLS when the server offers it). One pooled connection set per process.
 */
export function smtpTransport(url: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: "smtp",
    async send(mail: OutgoingMail) {
      const info = await transporter
        .sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          headers: { ...mail.headers, "X-Quayside-Notification": mail.dedupeKey },
        })
        .catch((error: unknown) => {
          throw refusalOf(error, mail.to);
        });
      return { messageId: typeof info.messageId === "string" ? info.messageId : null };
    },
    async close() {
      transporter.close();
    },
  };
}
