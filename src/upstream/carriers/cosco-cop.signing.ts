import { createHash, createHmac } from "node:crypto";

/**
 * COSCO Open-api Platform (COP) HMAC request signing, written from its documentation: README_en.md
 * "0x05 Security / Hmac Auth" of github.com/cop-cos/COP and the reference client it links
 * (openapi-client-pure, HmacPureExecutor). Pure: the date and the nonce come in, so a test can pin the
 * signature. The steps as documented:
 *
 * - `X-Coscon-Date`: the request time in GMT, `EEE, dd MMM yyyy HH:mm:ss GMT` (an RFC 1123 date).
 * - `X-Coscon-Digest`: `SHA-256=` + base64(SHA-256(body)); a GET signs the empty body.
 * - `X-Coscon-Content-Md5`: despite its name a nonce, the hex MD5 of a fresh UUID; repeated as
 *   `X-Coscon-Hmac`.
 * - The signed text is those three headers as `Name: value` lines, then the request line
 *   (`GET /service/info/tracking/... HTTP/1.1`), joined by `\n`.
 * - `X-Coscon-Authorization`: `hmac username="<apiKey>",algorithm="hmac-sha1",headers="X-Coscon-Date
 *   X-Coscon-Digest X-Coscon-Content-Md5 request-line",signature="<base64 HMAC-SHA1(secretKey, text)>"`.
 *
 * The request line is the one the HTTP client sends: the path from the host on (the service prefix
 * `/service` included) with its query, and `HTTP/1.1`.
 */

export const COP_SIGNED_HEADERS = ["X-Coscon-Date", "X-Coscon-Digest", "X-Coscon-Content-Md5"] as const;

export interface CopCredentials {
  apiKey: string;
  secretKey: string;
}

export interface CopSigningInput {
  method: string;
  /** Path and query as sent, `/service/info/tracking/6103622780?numberType=bl`. */
  pathAndQuery: string;
  body?: string | Uint8Array;
  date: Date;
  /** Any unique string per request; hashed with MD5 as the documented client does with a UUID. */
  nonce: string;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `Thu, 26 Nov 2026 19:40:39 GMT`: Date#toUTCString without depending on the runtime's wording. */
export function copDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} GMT`;
}

export function copDigest(body: string | Uint8Array = ""): string {
  return `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
}

export function copRequestLine(method: string, pathAndQuery: string): string {
  return `${method.toUpperCase()} ${pathAndQuery} HTTP/1.1`;
}

/** The text COP signs; shared by the client and by the simulator that checks it. */
export function copSigningText(headers: {
  date: string;
  digest: string;
  contentMd5: string;
  requestLine: string;
}): string {
  return [
    `X-Coscon-Date: ${headers.date}`,
    `X-Coscon-Digest: ${headers.digest}`,
    `X-Coscon-Content-Md5: ${headers.contentMd5}`,
    headers.requestLine,
  ].join("\n");
}

export function copSignature(secretKey: string, text: string): string {
  return createHmac("sha1", secretKey).update(text, "utf8").digest("base64");
}

/** The headers one COP request carries. */
export function signCopRequest(credentials: CopCredentials, input: CopSigningInput): Record<string, string> {
  const date = copDate(input.date);
  const digest = copDigest(input.body);
  const contentMd5 = createHash("md5").update(input.nonce).digest("hex");
  const text = copSigningText({
    date,
    digest,
    contentMd5,
    requestLine: copRequestLine(input.method, input.pathAndQuery),
  });
  const signature = copSignature(credentials.secretKey, text);
  return {
    "X-Coscon-Date": date,
    "X-Coscon-Digest": digest,
    "X-Coscon-Content-Md5": contentMd5,
    "X-Coscon-Hmac": contentMd5,
    "X-Coscon-Authorization": `hmac username="${credentials.apiKey}",algorithm="hmac-sha1",headers="${COP_SIGNED_HEADERS.join(" ")} request-line",signature="${signature}"`,
  };
}

export interface ParsedCopAuthorization {
  username: string;
  algorithm: string;
  headers: string;
  signature: string;
}

/** Reads `X-Coscon-Authorization` (the simulator's side); undefined when it is not in that form. */
export function parseCopAuthorization(value: string | undefined): ParsedCopAuthorization | undefined {
  const match = value?.match(/^hmac\s+(.*)$/i);
  if (!match?.[1]) return undefined;
  const fields = new Map<string, string>();
  for (const part of match[1].matchAll(/([a-zA-Z]+)="([^"]*)"/g)) {
    if (part[1] !== undefined && part[2] !== undefined) fields.set(part[1].toLowerCase(), part[2]);
  }
  const username = fields.get("username");
  const algorithm = fields.get("algorithm");
  const headers = fields.get("headers");
  const signature = fields.get("signature");
  if (!username || !algorithm || !headers || !signature) return undefined;
  return { username, algorithm, headers, signature };
}
