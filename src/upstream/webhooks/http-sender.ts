import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import {
  ACK_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  type WebhookAnswer,
  type WebhookPost,
  type WebhookSender,
} from "../../domain/webhooks/sender";

/** Idle kept-alive sockets are closed after this (receivers' servers usually close at 5 s too). */
const IDLE_SOCKET_MS = 4_000;

/**
 * Webhook POSTs over node's http(s), with a total deadline: a timer from the start of the request cuts
 * it at `deadlineMs` whether the receiver is silent or trickling bytes (a socket idle timeout alone
 * lets a receiver that sends a byte a second hold a delivery for ever). A status received in time
 * stands even if the body is still arriving at the deadline: the receiver answered within the limit.
 *
 * Connections are kept alive per origin, so one endpoint's deliveries reuse a socket; every new
 * connection resolves its name through `lookup`, the target guard's connect-time check.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };

  constructor(
    private readonly lookup: LookupFunction,
    private readonly deadlineMs = ACK_TIMEOUT_MS,
  ) {}

  post({ url, headers, body }: WebhookPost): Promise<WebhookAnswer> {
    const secure = url.protocol === "https:";
    const client = secure ? https : http;
    return new Promise((resolve) => {
      let status: number | null = null;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      const excerpt = () =>
        keptBytes === 0 ? null : Buffer.concat(kept).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8");
      let settled = false;
      const settle = (answer: WebhookAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(answer);
      };
      const request = client.request(
        url,
        {
          method: "POST",
          agent: secure ? this.agents.https : this.agents.http,
          lookup: this.lookup,
          headers,
        },
        (response) => {
          status = response.statusCode ?? null;
          // Only the status acknowledges; the body's start is kept to show the endpoint's owner.
          response.on("data", (chunk: Buffer) => {
            if (keptBytes >= RESPONSE_EXCERPT_BYTES) return;
            kept.push(chunk);
            keptBytes += chunk.length;
          });
          response.on("end", () => settle({ status, error: null, excerpt: excerpt() }));
          response.on("error", () => settle({ status, error: null, excerpt: excerpt() }));
        },
      );
      const deadline = setTimeout(() => {
        request.destroy();
        settle(
          status === null
            ? { status: null, error: `no answer within ${this.deadlineMs / 1000} s` }
            : { status, error: null, excerpt: excerpt() },
        );
      }, this.deadlineMs);
      request.on("error", (error) =>
        settle(
          status === null ? { status: null, error: error.message.slice(0, 300) } : { status, error: null },
        ),
      );
      request.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
