import nodemailer from "nodemailer";
import type { MailTransport, OutgoingMail } from "../../domain/notifications/mail-transport";

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
      const info = await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        headers: { ...mail.headers, "X-Quayside-Notification": mail.dedupeKey },
      });
      return { messageId: typeof info.messageId === "string" ? info.messageId : null };
    },
    async close() {
      transporter.close();
    },
  };
}
