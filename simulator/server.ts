/**
 * The carrier simulator's HTTP server: DCSA T&T 2.2 `GET /<SCAC>/v2/events` for every carrier of the
 * directory over the simulated world (and the same events as T&T 3.0 at `/<SCAC>/v3/events`), OAuth2 token endpoints for carriers configured with it, and a
 * small admin API to inject faults and move the clock.
 *
 * Fault "down" destroys the connection without an answer: from the client's side the carrier is
 * unreachable (ECONNRESET / socket hang up), which is what a dead upstream looks like, unlike a 503 that
 * a load balancer in front of it would send.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../src/lib/clock";
import { createSimulatorContext, type SimulatorOptions } from "./context";
import type { FaultControl } from "./faults";
import type { HabitControl } from "./habits";
import { createRouter } from "./router";
import type { SubscriptionControl } from "./subscriptions";
import type { SimulatedWorld } from "./world/world";

export type { SimulatorAuth } from "./auth";
export type { SimulatorOptions } from "./context";
export type { Fault, FaultControl, FaultMode } from "./faults";
export type { CarrierHabits, HabitControl, HabitName } from "./habits";
export { API_VERSION } from "./http";
export type { PushRecord, SubscriptionControl } from "./subscriptions";
export { notificationSignature } from "./subscriptions";

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:4010; carrier APIs live under `${url}/<SCAC>/v2/events`. */
  url: string;
  clock: Clock;
  faults: FaultControl;
  habits: HabitControl;
  subscriptions: SubscriptionControl;
  close(): Promise<void>;
}

/** A node request handler that also exposes the simulator's controls. */
export type SimulatorHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  clock: Clock;
  faults: FaultControl;
  habits: HabitControl;
  world: SimulatedWorld;
  /** Event subscriptions and their pushes (simulator/subscriptions.ts). */
  subscriptions: SubscriptionControl;
  /** Cancels pending slow answers (their connections are destroyed). */
  shutdown(): void;
};

export function createSimulatorHandler(options: SimulatorOptions = {}): SimulatorHandler {
  const ctx = createSimulatorContext(options);
  const { clock, faults, habits, world, pending } = ctx;
  const { handle: handler, subscriptions } = createRouter(ctx);
  // Pushes follow the clock: every tick delivers what the clock's moves made happen since the last one.
  const pushEveryMs = options.pushIntervalMs ?? 1000;
  const pushTimer =
    pushEveryMs > 0
      ? setInterval(() => {
          if (subscriptions.list().length > 0) void subscriptions.deliver();
        }, pushEveryMs)
      : undefined;
  pushTimer?.unref();

  return Object.assign(handler, {
    clock,
    faults,
    habits,
    world,
    subscriptions,
    shutdown() {
      if (pushTimer) clearInterval(pushTimer);
      for (const entry of pending) {
        clearTimeout(entry.timer);
        entry.res.destroy();
      }
      pending.clear();
    },
  });
}

/** Starts the simulator on its own HTTP server. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? "127.0.0.1";
  const handler = createSimulatorHandler(options);
  const server: Server = (options.createServer ?? createServer)(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}`,
    clock: handler.clock,
    faults: handler.faults,
    habits: handler.habits,
    subscriptions: handler.subscriptions,
    close: () =>
      new Promise<void>((resolve, reject) => {
        handler.shutdown();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
