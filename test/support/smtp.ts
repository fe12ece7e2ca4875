import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message as a real SMTP server received it, with its headers and text decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  /** The HTML alternative of a multipart/alternative mail; null for a text-only one. */
  html: string | null;
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on loopback that keeps everything it accepts.
 * `refuses` lists mailboxes it answers RCPT TO with `550 5.1.1` (no such user), as a hard bounce does.
 */
export async function startSmtpServer(options: { refuses?: Set<string> } = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuses?.has(address.address.toLowerCase())) return callback();
      const refused = Object.assign(
        new Error("5.1.1 <" + address.address + ">: Recipient address rejected: User unknown"),
        {
          responseCode: 550,
        },
      );
      callback(refused);
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMessage(raw),
          raw,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Headers unfolded and lower-cased; the text body (and the HTML alternative of a multipart/alternative
 * mail) decoded from quoted-printable or base64.
 */
function parseMessage(raw: string): {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string | null;
} {
  const { headers, body } = splitPart(raw);
  const boundary = /multipart\/[a-z]+;\s*boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
  if (boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith("--"))
      .map((p) => splitPart(p.replace(/^\r\n/, "")));
    const of = (type: string) => parts.find((p) => (p.headers["content-type"] ?? "").startsWith(type));
    const text = of("text/plain");
    const html = of("text/html");
    return {
      headers,
      subject: decodeWords(headers.subject ?? ""),
      text: text ? decodeBody(text.headers, text.body) : "",
      html: html ? decodeBody(html.headers, html.body) : null,
    };
  }
  return {
    headers,
    subject: decodeWords(headers.subject ?? ""),
    text: decodeBody(headers, body),
    html: null,
  };
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? Buffer.from(
          body
            .replace(/=\r\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        ).toString("utf8")
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return text.replace(/\r\n/g, "\n").replace(/\n$/, "");
}

/** RFC 2047 encoded words in a header (nodemailer encodes a subject with non-ASCII characters). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(
            data
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_x, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            "latin1",
          ).toString("utf8"),
    );
}
