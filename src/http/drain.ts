import type { Server } from "node:http";
import type { Logger } from "../observability/logger";
import type { ConnectionGuard, RequestInFlight } from "./connections";

export interface DrainTimings {
  /**
   * How long the listener keeps accepting after readiness turned 503, so that a load balancer probing
   * `/readyz` stops sending before connections are refused. 0: close the listener at once.
   */
  drainMs: number;
  /** How long in-flight requests get after the listener closed; what is left then is cut. */
  graceMs: number;
}

export interface DrainReport {
  /** Sockets closed because no request was in progress on them. */
  closedIdle: number;
  /** Requests still unanswered when the grace ended, cut with their connection. */
  cut: RequestInFlight[];
}

/**
 * How long before the grace ends long requests are asked to wrap up: the time a bulk answer needs to
 * be rendered and written once it stops waiting (a fifth of the grace, at most 2 s).
 */
export function wrapUpLeadMs(graceMs: number): number {
  return Math.min(2_000, Math.floor(graceMs / 5));
}

/**
 * The HTTP half of a graceful shutdown, once readiness already fails (`startDraining`):
 * 1. keeps serving for `drainMs`, the time a load balancer needs to notice the failing readiness;
 *    every answer now says `Connection: close`, so a keep-alive client's next request is still
 *    served and then its socket closes (closing idle sockets already here would reset a client whose
 *    next request is on its way, for no gain: the listener still accepts);
 * 2. closes the listener and every socket with no request in progress, including one that never sent
 *    a request (those held the process for the whole grace), and waits for in-flight requests;
 * 3. `wrapUpLeadMs` before the grace ends, calls `onWrapUp` (bulk tracking answers with what it
 *    committed);
 * 4. when the grace ends, cuts what is left and names it in the log.
 */
export async function drainHttpServer(input: {
  server: Server;
  guard: ConnectionGuard;
  timings: DrainTimings;
  logger: Logger;
  onWrapUp: () => void;
}): Promise<DrainReport> {
  const { server, guard, timings, logger } = input;
  if (timings.drainMs > 0) {
    logger.info(
      { drainMs: timings.drainMs, graceMs: timings.graceMs },
      "Draining: readiness fails, still serving until the load balancer stops sending",
    );
    await new Promise((resolve) => setTimeout(resolve, timings.drainMs));
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const closedIdle = guard.closeIdle();
  const inFlight = guard.requestsInFlight().length;
  if (inFlight > 0)
    logger.info({ inFlight, graceMs: timings.graceMs }, "Listener closed: finishing requests");

  const wrapUp = setTimeout(input.onWrapUp, Math.max(0, timings.graceMs - wrapUpLeadMs(timings.graceMs)));
  let graceTimer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"grace-over">((resolve) => {
    graceTimer = setTimeout(() => resolve("grace-over"), timings.graceMs);
  });
  const ending = await Promise.race([closed.then(() => "closed" as const), graceOver]);
  clearTimeout(wrapUp);
  clearTimeout(graceTimer);
  if (ending === "closed") return { closedIdle, cut: [] };

  const cut = guard.requestsInFlight();
  if (cut.length > 0) {
    logger.warn(
      { graceMs: timings.graceMs, count: cut.length, requests: cut.slice(0, 50) },
      "Shutdown grace ended: cut requests still in flight",
    );
  }
  server.closeAllConnections();
  await closed;
  return { closedIdle, cut };
}
