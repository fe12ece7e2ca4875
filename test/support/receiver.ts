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
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    calls: () => calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
