/**
 * The simulator's state and the helpers its routes share, built once per handler: the clock, faults,
 * habits, token issuer, world, request counts, authentication per carrier and the pending slow answers.
 */

import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import { type Clock, systemClock } from "../src/lib/clock";
import { type SimulatorAuth, TokenIssuer } from "./auth";
import type { CopCredentials } from "./cop";
import type { DcsaError } from "./dcsa-types";
import { createFaultControl, type FaultControl } from "./faults";
import { type CarrierHabits, createHabitControl, type HabitControl } from "./habits";
import {
  API_VERSION,
  isCommercialSchedulesPath,
  isTnt3Path,
  mainScac,
  publicBase,
  STATUS_TEXT,
  send,
} from "./http";
import { CS_API_VERSION } from "./schedules";
import { TNT3_API_VERSION, tnt3Error } from "./tnt3";
import { toUtcIso } from "./world/local-time";
import { SimulatedWorld } from "./world/world";

const DEFAULT_PAGE_SIZE = 20;

export interface SimulatorOptions {
  /** Port to listen on; 0 picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default the system clock; a ManualClock lets tests and the admin API move time. */
  clock?: Clock;
  /** Events per page when the query has no `limit` (default 20). */
  pageSize?: number;
  /** Authentication demanded per SCAC (default none for every carrier). */
  auth?: Record<string, SimulatorAuth>;
  /** Added to every carrier answer, to look like a remote API. */
  latencyMs?: number;
  /** The world to serve (default: the real-looking one; the sandbox passes one that knows every reference). */
  world?: SimulatedWorld;
  /** Real carriers' habits per SCAC (simulator/habits.ts; default none: every carrier is ideal DCSA). */
  habits?: Record<string, CarrierHabits>;
  /**
   * Lines that also answer COSCO's COP cargo tracking at `/<SCAC>/cop/info/tracking/<n>`, with the
   * apiKey/secretKey whose HMAC signature they demand (simulator/cop.ts).
   */
  cop?: Record<string, CopCredentials>;
  /**
   * Makes the listener (default Node's own). The service passes its own, so that a socket left silent
   * on the embedded simulator's port is closed at the service's deadlines like one on its API port.
   */
  createServer?: (handler: RequestListener) => Server;
  /**
   * How often (real milliseconds) subscriptions are pushed what the clock's moves made happen
   * (default 1000; 0: only on `PUT /_admin/clock` and `subscriptions.deliver()`).
   */
  pushIntervalMs?: number;
}

export interface SimulatorContext {
  options: SimulatorOptions;
  clock: Clock;
  pageSize: number;
  latencyMs: number;
  faults: FaultControl;
  habits: HabitControl;
  tokens: TokenIssuer;
  world: SimulatedWorld;
  /** Requests per main SCAC, for `GET /_admin/state`. */
  requests: Map<string, number>;
  auth: Map<string, SimulatorAuth>;
  pending: Set<{ timer: NodeJS.Timeout; res: ServerResponse }>;
  /** Waits `ms` (registered, so shutdown can cut it); false when the client went away meanwhile. */
  wait(ms: number, res: ServerResponse): Promise<boolean>;
  dcsaError(req: IncomingMessage, status: number, problems: { reason: string; message: string }[]): DcsaError;
  sendDcsaError(req: IncomingMessage, res: ServerResponse, status: number, problem: DcsaProblem): void;
}

/** One refusal in a carrier's error shape: its reason code, its text, and any headers it adds. */
export interface DcsaProblem {
  reason: string;
  message: string;
  headers?: Record<string, string>;
}

export function createSimulatorContext(options: SimulatorOptions): SimulatorContext {
  const clock = options.clock ?? systemClock;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const latencyMs = options.latencyMs ?? 0;
  const faults = createFaultControl(mainScac);
  const habits = createHabitControl(mainScac, options.habits);
  const tokens = new TokenIssuer();
  const world = options.world ?? new SimulatedWorld();
  const requests = new Map<string, number>();
  const auth = new Map(
    Object.entries(options.auth ?? {}).map(([scac, strategy]) => [mainScac(scac), strategy]),
  );
  const pending = new Set<{ timer: NodeJS.Timeout; res: ServerResponse }>();

  const wait = (ms: number, res: ServerResponse) =>
    new Promise<boolean>((resolve) => {
      if (ms <= 0) {
        resolve(true);
        return;
      }
      const entry = {
        res,
        timer: setTimeout(() => {
          pending.delete(entry);
          resolve(!res.destroyed);
        }, ms),
      };
      pending.add(entry);
    });

  const dcsaError = (
    req: IncomingMessage,
    status: number,
    problems: { reason: string; message: string }[],
  ): DcsaError => ({
    httpMethod: req.method ?? "GET",
    requestUri: `${publicBase(req)}${req.url ?? "/"}`,
    statusCode: status,
    statusCodeText: STATUS_TEXT[status] ?? "Error",
    errorDateTime: toUtcIso(clock.now().getTime()),
    errors: problems,
  });

  /**
   * Every error of a carrier resource, in the error shape of the standard the resource belongs to:
   * T&T 2.2 items are `{reason, message}`, Commercial Schedules 1.0 `DetailedError`s are
   * `{errorCodeText, errorCodeMessage}` (CS_v1.0.3.yaml). Decided by the path, so the refusals that
   * come before the resource is read (faults, habits, authentication) answer in the right shape too.
   */
  const sendDcsaError = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    { reason, message, headers = {} }: DcsaProblem,
  ) => {
    if (isTnt3Path(req)) {
      send(res, status, tnt3Error(message), { "API-Version": TNT3_API_VERSION, ...headers });
      return;
    }
    if (isCommercialSchedulesPath(req)) {
      send(
        res,
        status,
        { ...dcsaError(req, status, []), errors: [{ errorCodeText: reason, errorCodeMessage: message }] },
        { "API-Version": CS_API_VERSION, ...headers },
      );
      return;
    }
    send(res, status, dcsaError(req, status, [{ reason, message }]), {
      "API-Version": API_VERSION,
      ...headers,
    });
  };

  return {
    options,
    clock,
    pageSize,
    latencyMs,
    faults,
    habits,
    tokens,
    world,
    requests,
    auth,
    pending,
    wait,
    dcsaError,
    sendDcsaError,
  };
}
