/**
 * What every route of the simulator shares: the JSON answer, the body reader, the public base URL and
 * the carrier-resource error shapes (T&T 2.2, T&T 3.0 and Commercial Schedules 1.0).
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { findSimulatedCarrier } from "./world/references";

export const API_VERSION = "2.2.0";
const MAX_BODY_BYTES = 64 * 1024;

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function mainScac(scac: string): string {
  return findSimulatedCarrier(scac)?.scac ?? scac.trim().toUpperCase();
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return;
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { "Content-Type": "application/json; charset=utf-8" }),
    "Content-Length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function publicBase(req: IncomingMessage): string {
  const host = req.headers.host ?? "127.0.0.1";
  // Mounted under a prefix (express app.use("/sim", handler)) the public path keeps that prefix.
  const mountedAt = (req as IncomingMessage & { baseUrl?: string }).baseUrl ?? "";
  return `http://${host}${mountedAt}`;
}

const CS_RESOURCES = new Set(["v1/point-to-point-routes", "v1/port-schedules"]);

/** Whether the request is for a carrier's Commercial Schedules resource (`/<SCAC>/v1/...`). */
export function isTnt3Path(req: IncomingMessage): boolean {
  const path = new URL(req.url ?? "/", "http://simulator.invalid").pathname;
  return path.split("/").filter(Boolean).slice(1).join("/") === "v3/events";
}

export function isCommercialSchedulesPath(req: IncomingMessage): boolean {
  const path = new URL(req.url ?? "/", "http://simulator.invalid").pathname;
  const segments = path.split("/").filter(Boolean);
  return CS_RESOURCES.has(segments.slice(1).join("/"));
}

export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}
