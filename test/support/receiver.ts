import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver whose answers a test scripts (status per call). */
export async function startReceiver(answer: (n: number) => number = () => 200) {
  const received: ReceivedWebhook[] = [];
  let calls = 0;
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      calls++;
      const status = answer(calls);
      if (status >= 200 && status < 300)
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status).end();
    });
  });
  // Counted below HTTP: a TLS hello or a dropped request reaches here too, so zero means nothing came.
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    calls: () => calls,
    /** TCP connections accepted, whatever was (or was not) sent on them. */
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A receiver that answers 200 after `delayMs`, recording when each delivery arrived and, per path (one
 * path per endpoint), how many requests were open at once at most.
 */
export async function startTimedReceiver(delayMs: (path: string) => number) {
  const arrivals: { path: string; deliveryId: string; at: number }[] = [];
  const open = new Map<string, number>();
  const mostOpen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    open.set(path, (open.get(path) ?? 0) + 1);
    mostOpen.set(path, Math.max(mostOpen.get(path) ?? 0, open.get(path)!));
    arrivals.push({ path, deliveryId: String(req.headers["x-service-delivery"]), at: Date.now() });
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        open.set(path, open.get(path)! - 1);
        res.writeHead(200).end();
      }, delayMs(path)),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    arrivals,
    mostOpen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
