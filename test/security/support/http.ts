import http from "node:http";

/** One request as the fuzz sent it, and the answer; everything a failure message needs to be replayed. */
export interface Exchange {
  method: string;
  /** Path and query exactly as written on the wire (malformed percent-encoding included). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  responseHeaders: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * Sends a request with node:http rather than fetch: fetch normalises the path (it would re-encode a
 * lone `%` or a `%FF`) and refuses verbs and headers a hostile client is free to send.
 */
export function send(baseUrl: string, request: RawRequest): Promise<Exchange> {
  const url = new URL(baseUrl);
  const body = request.body;
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            method: request.method,
            path: request.path,
            headers,
            body: body === undefined ? undefined : Buffer.isBuffer(body) ? body.toString("latin1") : body,
            status: res.statusCode ?? 0,
            responseHeaders: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () =>
      req.destroy(new Error(`no answer within 30 s to ${request.method} ${request.path}`)),
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/**
 * A path segment or query value percent-encoded the way a well-behaved client would. A lone surrogate
 * (which `encodeURIComponent` refuses) is written as its WTF-8 bytes, as a sloppy client would send it.
 */
export function enc(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = value.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out +=
        `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}

/** Builds `?a=1&b=2` from pairs whose values are already wire-ready (encoded or deliberately not). */
export function queryString(pairs: readonly (readonly [string, string])[]): string {
  return pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`;
}
