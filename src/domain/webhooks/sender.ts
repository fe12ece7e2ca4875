import type { WebhookDelivery, WebhookEndpoint } from "../../generated/prisma/client";
import type { WebhookEventName } from "./events";
import { signatureHeader } from "./signature";

/** Spec v1 section 6: a receiver acknowledges with a 2xx within 10 s, counted from the start of the POST. */
export const ACK_TIMEOUT_MS = 10_000;
const USER_AGENT = "Service-Webhooks/1";

/** One signed POST, ready to go: the exact bytes and headers a receiver sees. */
export interface WebhookPost {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** What came back: a status, or none and why (deadline passed, refused, blocked). */
export interface WebhookAnswer {
  status: number | null;
  error: string | null;
  /** The start of the answer's body as text (at most `RESPONSE_EXCERPT_BYTES`), when one came. */
  excerpt?: string | null;
}

/** How much of a receiver's answer is kept with the attempt: enough to read an error page's point. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The port the delivery needs from the outside: POST once, never follow a redirect, and give up at
 * `ACK_TIMEOUT_MS` after the start, whatever the receiver is doing then (a receiver that trickles
 * bytes is cut, not waited for). The adapter is `src/upstream/webhooks/http-sender.ts`.
 */
export interface WebhookSender {
  post(request: WebhookPost): Promise<WebhookAnswer>;
  /** Closes kept-alive connections (shutdown). */
  close(): void;
}

/**
 * The headers of a delivery that are the same at every attempt; the signature header is added per
 * attempt (it signs the attempt's time), so it is not among them.
 */
export function deliveryHeaders(delivery: Pick<WebhookDelivery, "id" | "event">): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "x-service-event": delivery.event as WebhookEventName,
    "x-service-delivery": delivery.id,
  };
}

/** The POST of one delivery to one endpoint, signed now. */
export function signedPost(
  url: URL,
  secret: string,
  delivery: Pick<WebhookDelivery, "id" | "event" | "body">,
  unixSeconds: number,
): WebhookPost {
  return {
    url,
    headers: {
      ...deliveryHeaders(delivery),
      "x-service-signature": signatureHeader(secret, delivery.body, unixSeconds),
    },
    body: delivery.body,
  };
}

export type EndpointTarget = Pick<WebhookEndpoint, "url" | "secret">;
