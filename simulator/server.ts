/**
 * The carrier simulator's HTTP server: DCSA T&T 2.2 `GET /<SCAC>/v2/events` for every carrier of the
 * directory over the simulated world (and the same events as T&T 3.0 at `/<SCAC>/v3/events`), OAuth2 token endpoints for carriers configured with it, and a
 * small admin API to inject faults and move the clock.
 *
 * Fault "down" destroys the connection without an answer: from the client's side the carrier is
 * unreachable (ECONNRESET / socket hang up), which is what a dead upstream looks like, unlike a 503 that
 * a load balancer in front of it would send.
 */

import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { CARRIERS, type Carrier } from "../reference-data/carriers";
import { type Clock, ManualClock, systemClock } from "../src/lib/clock";
import { authorize, type SimulatorAuth, TokenIssuer, tokenRequest } from "./auth";
import { type CopCredentials, copSignatureValid, copTrackingAnswer } from "./cop";
import type { DcsaError, DcsaEvent } from "./dcsa-types";
import { type EventsQuery, encodeCursor, filterEvents, parseEventsQuery, sortEvents } from "./events-query";
import {
  answeredAboutAnotherBox,
  createFaultControl,
  type Fault,
  type FaultControl,
  parseFault,
} from "./faults";
import { FEED_PUBLISHERS, feedXml, isFeedPublisher } from "./feeds";
import {
  applyEventHabits,
  type CarrierHabits,
  createHabitControl,
  eventsBody,
  type HabitControl,
  parseHabitsBody,
} from "./habits";
import {
  CS_API_VERSION,
  encodeCsCursor,
  parsePointToPointQuery,
  parsePortScheduleQuery,
  pointToPointRoutes,
  renderPortSchedule,
} from "./schedules";
import { terminalAnswer } from "./terminals";
import { TNT3_API_VERSION, tnt3Error, toVersion3 } from "./tnt3";
import { portAreaAnswer, vesselPositionAnswer } from "./vessel-positions";
import { awaitingReleaseBooking, awaitingReleaseBox, awaitingReleaseEvents } from "./world/awaiting-release";
import {
  carrierExamples,
  type ExampleDocument,
  exampleDocumentEvents,
  exampleDocumentFor,
} from "./world/example-references";
import { toUtcIso } from "./world/local-time";
import { findPort } from "./world/ports";
import { findSimulatedCarrier } from "./world/references";
import { type Shipment, SimulatedWorld } from "./world/world";

export type { SimulatorAuth } from "./auth";
export type { Fault, FaultControl, FaultMode } from "./faults";
export type { CarrierHabits, HabitControl, HabitName } from "./habits";

export const API_VERSION = "2.2.0";
const DEFAULT_PAGE_SIZE = 20;
const DEFAULT_SLOW_MS = 5000;
const DEFAULT_RETRY_AFTER_SECONDS = 30;
const MAX_BODY_BYTES = 64 * 1024;

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
}

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:4010; carrier APIs live under `${url}/<SCAC>/v2/events`. */
  url: string;
  clock: Clock;
  faults: FaultControl;
  habits: HabitControl;
  close(): Promise<void>;
}

/** A node request handler that also exposes the simulator's controls. */
export type SimulatorHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  clock: Clock;
  faults: FaultControl;
  habits: HabitControl;
  world: SimulatedWorld;
  /** Cancels pending slow answers (their connections are destroyed). */
  shutdown(): void;
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
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

function mainScac(scac: string): string {
  return findSimulatedCarrier(scac)?.scac ?? scac.trim().toUpperCase();
}

function send(
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

function readBody(req: IncomingMessage): Promise<string> {
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

function publicBase(req: IncomingMessage): string {
  const host = req.headers.host ?? "127.0.0.1";
  // Mounted under a prefix (express app.use("/sim", handler)) the public path keeps that prefix.
  const mountedAt = (req as IncomingMessage & { baseUrl?: string }).baseUrl ?? "";
  return `http://${host}${mountedAt}`;
}

export function createSimulatorHandler(options: SimulatorOptions = {}): SimulatorHandler {
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
    reason: string,
    message: string,
    headers: Record<string, string> = {},
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

  async function handleCarrier(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    segments: string[],
  ): Promise<void> {
    const carrier = findSimulatedCarrier(segments[0] ?? "");
    if (!carrier) {
      sendDcsaError(req, res, 404, "notFound", `No carrier with SCAC ${segments[0] ?? ""} is simulated.`);
      return;
    }
    requests.set(carrier.scac, (requests.get(carrier.scac) ?? 0) + 1);
    const rest = segments.slice(1).join("/");
    if (segments[1] === "cop") {
      answerCop(req, res, carrier, url, segments.slice(2));
      return;
    }
    const isTnt3 = rest === "v3/events";
    const isEvents = rest === "v2/events" || isTnt3;
    const isToken = rest === "oauth/token";
    const isSchedules = rest === "v1/point-to-point-routes";
    const isPortSchedules = rest === "v1/port-schedules";
    if (!isEvents && !isToken && !isSchedules && !isPortSchedules) {
      sendDcsaError(req, res, 404, "notFound", `No resource ${url.pathname}.`);
      return;
    }
    if (!(await wait(latencyMs, res))) return;
    const fault = faults.get(carrier.scac);
    if (fault && (await applyFault(fault, req, res, carrier, url))) return;
    const refusal = habits.refusal(carrier.scac, clock.now().getTime());
    if (refusal) {
      sendDcsaError(req, res, 429, "tooManyRequests", `${carrier.name} allows no more requests now.`, {
        "Retry-After": String(refusal.retryAfterSeconds),
      });
      return;
    }
    const strategy = auth.get(carrier.scac) ?? { kind: "none" };
    if (isToken) {
      if (req.method !== "POST") {
        sendDcsaError(req, res, 405, "methodNotAllowed", "Use POST to request a token.", { Allow: "POST" });
        return;
      }
      if (strategy.kind !== "oauth2") {
        send(res, 404, { error: "not_found", error_description: `${carrier.scac} does not use OAuth2.` });
        return;
      }
      const outcome = tokenRequest(
        req,
        await readBody(req),
        strategy,
        carrier.scac,
        tokens,
        clock.now().getTime(),
        `${publicBase(req)}${url.pathname}`,
      );
      send(res, outcome.status, outcome.body, outcome.headers);
      return;
    }
    if (req.method !== "GET") {
      sendDcsaError(req, res, 405, "methodNotAllowed", `Only GET is supported on /${rest}.`, {
        Allow: "GET",
      });
      return;
    }
    const allowed = authorize(req, strategy, carrier.scac, tokens, clock.now().getTime());
    if (!allowed.ok) {
      sendDcsaError(
        req,
        res,
        401,
        "unauthorized",
        allowed.message,
        allowed.challenge ? { "WWW-Authenticate": allowed.challenge } : {},
      );
      return;
    }
    if (isSchedules) {
      answerPointToPoint(req, res, carrier, url);
      return;
    }
    if (isPortSchedules) {
      answerPortSchedule(req, res, carrier, url);
      return;
    }
    const query = parseEventsQuery(url.searchParams);
    if (Array.isArray(query)) {
      if (isTnt3) {
        send(res, 400, tnt3Error(query.map((p) => p.message).join(" ")), { "API-Version": TNT3_API_VERSION });
        return;
      }
      send(res, 400, dcsaError(req, 400, query), { "API-Version": API_VERSION });
      return;
    }
    if (exampleDocumentFor(carrier, query)?.outcome === "unreadable" && !query.equipmentReference) {
      sendCutOffEvents(res, carrier, url);
      return;
    }
    let events = eventsForQuery(carrier, query);
    const boxQuery =
      query.equipmentReference && !query.transportDocumentReference && !query.carrierBookingReference;
    if (boxQuery && faults.get(carrier.scac)?.mode === "other-box") {
      events = answeredAboutAnotherBox(events, query.equipmentReference!);
    }
    if (isTnt3) {
      answerTnt3(res, events, query);
      return;
    }
    const page = events.slice(query.offset, query.offset + (query.limit ?? pageSize));
    const base = `${publicBase(req)}${url.pathname}`;
    const linkTo = (offset: number) => {
      const params = new URLSearchParams(url.searchParams);
      params.delete("cursor");
      if (offset > 0) params.set("cursor", encodeCursor(offset, query.fingerprint));
      const search = params.toString();
      return search ? `${base}?${search}` : base;
    };
    const limit = query.limit ?? pageSize;
    const headers: Record<string, string> = {
      "API-Version": API_VERSION,
      "Current-Page": linkTo(query.offset),
    };
    if (query.offset + limit < events.length) headers["Next-Page"] = linkTo(query.offset + limit);
    if (query.offset > 0) {
      headers["First-Page"] = linkTo(0);
      headers["Prev-Page"] = linkTo(Math.max(0, query.offset - limit));
    }
    // The same habits as faults (set at run time) or as the carrier's habits (set at start or later).
    const faultMode = faults.get(carrier.scac)?.mode;
    const carrierHabits = habits.get(carrier.scac)?.habits ?? [];
    const has = (name: "bom" | "relative-paging" | "link-paging") =>
      faultMode === name || carrierHabits.includes(name);
    const next = headers["Next-Page"];
    if (has("relative-paging") && next) {
      const link = new URL(next);
      headers["Next-Page"] = `${link.pathname}${link.search}`;
    }
    if (has("link-paging") && next) {
      delete headers["Next-Page"];
      headers.Link = `<${next}>; rel="next"`;
    }
    const body = eventsBody(applyEventHabits(page, carrierHabits), carrierHabits);
    if (has("bom")) {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))]);
      res.writeHead(200, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": String(bytes.byteLength),
        ...headers,
      });
      res.end(bytes);
      return;
    }
    send(res, 200, body, headers);
  }

  /**
   * T&T 3.0: the same events in the 3.0 shape, `{ events }`, one page of `limit` (or the page size)
   * and the cursor of the next page in `Next-Page-Cursor`, sent back with the original query.
   */
  function answerTnt3(res: ServerResponse, events: readonly DcsaEvent[], query: EventsQuery): void {
    const limit = query.limit ?? pageSize;
    const page = events.slice(query.offset, query.offset + limit);
    const headers: Record<string, string> = { "API-Version": TNT3_API_VERSION };
    if (query.offset + limit < events.length) {
      headers["Next-Page-Cursor"] = encodeCursor(query.offset + limit, query.fingerprint);
    }
    send(res, 200, { events: page.map(toVersion3) }, headers);
  }

  /** A Commercial Schedules query the simulator cannot answer: 400 naming each bad parameter. */
  function sendCsQueryProblems(
    req: IncomingMessage,
    res: ServerResponse,
    problems: readonly { property: string; value: string; message: string }[],
  ): void {
    send(
      res,
      400,
      {
        ...dcsaError(req, 400, []),
        errors: problems.map((p) => ({
          property: p.property,
          value: p.value,
          errorCodeText: "invalidQuery",
          errorCodeMessage: p.message,
        })),
      },
      { "API-Version": CS_API_VERSION },
    );
  }

  /** DCSA Commercial Schedules 1.0 point-to-point routes over the world's timetables. */
  function answerPointToPoint(req: IncomingMessage, res: ServerResponse, carrier: Carrier, url: URL): void {
    const query = parsePointToPointQuery(url.searchParams);
    if (Array.isArray(query)) {
      sendCsQueryProblems(req, res, query);
      return;
    }
    const routes = pointToPointRoutes(carrier, query, clock.now().getTime());
    const page = routes.slice(query.offset, query.offset + query.limit);
    const headers: Record<string, string> = { "API-Version": CS_API_VERSION };
    if (query.offset + query.limit < routes.length) {
      headers["Next-Page-Cursor"] = encodeCsCursor(query.offset + query.limit, query.fingerprint);
    }
    send(res, 200, page, headers);
  }

  /** DCSA Commercial Schedules 1.0 port schedules: the proforma calls of the world's planned voyages. */
  function answerPortSchedule(req: IncomingMessage, res: ServerResponse, carrier: Carrier, url: URL): void {
    const query = parsePortScheduleQuery(url.searchParams);
    if (Array.isArray(query)) {
      sendCsQueryProblems(req, res, query);
      return;
    }
    const port = findPort(query.UNLocationCode);
    const calls = world.portCallsOn(carrier.scac, query.UNLocationCode, query.date);
    // A port the carrier does not call has an empty schedule, as carriers answer it.
    send(res, 200, port && calls ? renderPortSchedule(carrier, port, calls) : [], {
      "API-Version": CS_API_VERSION,
    });
  }

  /** COSCO's COP cargo tracking for a line that has the profile: signed, then the world in COP's words. */
  function answerCop(
    req: IncomingMessage,
    res: ServerResponse,
    carrier: Carrier,
    url: URL,
    path: string[],
  ): void {
    const credentials = options.cop?.[carrier.scac];
    const number = path[2];
    const numberType = url.searchParams.get("numberType");
    if (!credentials || path[0] !== "info" || path[1] !== "tracking" || !number || path.length !== 3) {
      send(res, 404, { code: 404, message: `No COP resource ${url.pathname}.` });
      return;
    }
    if (!copSignatureValid(req, `${url.pathname}${url.search}`, credentials)) {
      send(res, 401, { code: 401, message: "HMAC signature cannot be verified." });
      return;
    }
    const param = {
      bl: "transportDocumentReference",
      bkg: "carrierBookingReference",
      cntr: "equipmentReference",
    }[numberType ?? ""];
    if (!param || (numberType !== "bl" && numberType !== "bkg" && numberType !== "cntr")) {
      send(res, 200, { code: 5400, message: "numberType must be bl, bkg or cntr." });
      return;
    }
    const query = parseEventsQuery(new URLSearchParams({ [param]: number }));
    const events = Array.isArray(query) ? [] : eventsForQuery(carrier, query);
    send(res, 200, copTrackingAnswer(events, numberType));
  }

  function eventsForQuery(carrier: Carrier, query: EventsQuery): DcsaEvent[] {
    const now = clock.now();
    let shipment: Shipment | undefined;
    let includeShipmentEvents = true;
    const example = exampleDocumentFor(carrier, query);
    if (example) {
      // No box is on an example document: narrowed to one, it answers nothing.
      if (query.equipmentReference) return [];
      return sortEvents(filterEvents(exampleDocumentEvents(carrier, example, now), query), query.sort);
    }
    if (query.carrierBookingReference && query.carrierBookingReference === awaitingReleaseBooking(carrier)) {
      // The booking of the box awaiting release answers what the box does: its confirmation alone.
      const box = awaitingReleaseBox(carrier) ?? "";
      if (query.equipmentReference && query.equipmentReference !== box) return [];
      const awaiting = awaitingReleaseEvents(carrier, box, now) ?? [];
      return sortEvents(filterEvents(awaiting, query), query.sort);
    }
    if (query.carrierBookingReference) {
      shipment = world.shipmentFor(carrier.scac, query.carrierBookingReference, "booking", now);
      if (
        shipment &&
        query.transportDocumentReference &&
        shipment.transportDocumentReference !== query.transportDocumentReference
      ) {
        return [];
      }
    } else if (query.transportDocumentReference) {
      shipment = world.shipmentFor(carrier.scac, query.transportDocumentReference, "document", now);
    } else if (query.equipmentReference) {
      const awaiting = awaitingReleaseEvents(carrier, query.equipmentReference, now);
      if (awaiting) return sortEvents(filterEvents(awaiting, query), query.sort);
      shipment = world.shipmentFor(carrier.scac, query.equipmentReference, "equipment", now);
      // A box query is about the box: carriers answer with its moves and its ships, not the paperwork.
      includeShipmentEvents = false;
    }
    if (!shipment) return [];
    if (
      query.transportDocumentTypeCode &&
      shipment.transportDocumentTypeCode !== query.transportDocumentTypeCode
    ) {
      return [];
    }
    if (
      query.equipmentReference &&
      !shipment.containers.some((box) => box.equipmentReference === query.equipmentReference)
    ) {
      return [];
    }
    const events = world.eventsFor(shipment, now, {
      ...(query.equipmentReference ? { equipmentReference: query.equipmentReference } : {}),
      includeShipmentEvents,
    });
    return sortEvents(filterEvents(events, query), query.sort);
  }

  /** A body cut off mid-stream: valid JSON up to a point, then nothing (fault `malformed`, example `unreadable`). */
  function sendCutOffEvents(res: ServerResponse, carrier: Carrier, url: URL): void {
    const text = `[{"eventID":"${carrier.scac.toLowerCase()}${url.pathname.length}","eventType":"TRANSPORT","eventClassifierCode":"AC`;
    if (res.writableEnded) return;
    res.writeHead(200, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(text)),
      "API-Version": API_VERSION,
    });
    res.end(text);
  }

  /** Answers (or drops) a request the way the fault says; false when the request should go on. */
  async function applyFault(
    fault: Fault,
    req: IncomingMessage,
    res: ServerResponse,
    carrier: Carrier,
    url: URL,
  ): Promise<boolean> {
    switch (fault.mode) {
      case "down":
        req.socket.destroy();
        return true;
      case "slow":
        return !(await wait(fault.delayMs ?? DEFAULT_SLOW_MS, res));
      case "server-error": {
        const status = fault.status ?? 500;
        const retry: Record<string, string> =
          status === 503 && fault.retryAfterSeconds !== undefined
            ? { "Retry-After": String(fault.retryAfterSeconds) }
            : {};
        sendDcsaError(req, res, status, "internalError", `${carrier.name} is failing (simulated).`, retry);
        return true;
      }
      case "rate-limited": {
        const seconds = fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
        sendDcsaError(req, res, 429, "tooManyRequests", "Rate limit exceeded (simulated).", {
          "Retry-After": String(seconds),
        });
        return true;
      }
      case "malformed":
        sendCutOffEvents(res, carrier, url);
        return true;
      case "bom":
      case "relative-paging":
      case "link-paging":
      case "other-box":
        // Habits, applied to the events answer itself (answerEvents).
        return false;
    }
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
    const [, resource, target] = segments;
    if (resource === "state" && req.method === "GET") {
      send(res, 200, {
        clock: { now: clock.now().toISOString(), manual: clock instanceof ManualClock },
        faults: faults.list(),
        habits: habits.list(),
        tokenIssues: tokens.issueCounts(),
        requests: Object.fromEntries(requests),
      });
      return;
    }
    if (resource === "faults") {
      if (req.method === "DELETE") {
        if (target && !findSimulatedCarrier(target)) {
          send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
          return;
        }
        faults.clear(target);
        send(res, 204, undefined);
        return;
      }
      if (req.method === "PUT" && target) {
        if (!findSimulatedCarrier(target)) {
          send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
          return;
        }
        const parsed = parseJson(await readBody(req));
        const fault = parsed === undefined ? "body must be JSON" : parseFault(parsed);
        if (typeof fault === "string") {
          send(res, 400, { error: fault });
          return;
        }
        faults.set(target, fault);
        send(res, 200, { scac: mainScac(target), fault });
        return;
      }
    }
    if (resource === "habits") {
      if (target && !findSimulatedCarrier(target)) {
        send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
        return;
      }
      if (req.method === "DELETE") {
        habits.clear(target);
        send(res, 204, undefined);
        return;
      }
      if (req.method === "PUT" && target) {
        const parsed = parseJson(await readBody(req));
        const value = parsed === undefined ? "body must be JSON" : parseHabitsBody(parsed);
        if (typeof value === "string") {
          send(res, 400, { error: value });
          return;
        }
        habits.set(target, value);
        send(res, 200, { scac: mainScac(target), ...habits.get(target) });
        return;
      }
    }
    if (resource === "clock" && req.method === "PUT") {
      if (!(clock instanceof ManualClock)) {
        send(res, 409, {
          error: "The simulator runs on the system clock; start it with a ManualClock to move time.",
        });
        return;
      }
      const parsed = parseJson(await readBody(req));
      const body = (typeof parsed === "object" && parsed !== null ? parsed : {}) as {
        now?: unknown;
        advanceMs?: unknown;
      };
      if (typeof body.now === "string" && !Number.isNaN(Date.parse(body.now))) clock.set(body.now);
      else if (typeof body.advanceMs === "number" && Number.isFinite(body.advanceMs))
        clock.advance(body.advanceMs);
      else {
        send(res, 400, { error: "Send {now: ISO date-time} or {advanceMs: number}." });
        return;
      }
      send(res, 200, { now: clock.now().toISOString() });
      return;
    }
    send(res, 404, { error: `No admin resource ${req.method} /${segments.join("/")}.` });
  }

  function answerVesselPosition(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const answer = vesselPositionAnswer(url.searchParams, clock.now().getTime());
    send(res, answer.status, answer.body);
  }

  function answerPortArea(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const answer = portAreaAnswer(url.searchParams, clock.now().getTime());
    send(res, answer.status, answer.body);
  }

  /** The carrier's example references (world/example-references.ts, README "Example references"). */
  function examplesOf(carrier: Carrier) {
    const { cancelled, noContainers, unreadable, unknownBox } = carrierExamples(carrier);
    const document = (example: ExampleDocument | undefined) =>
      example && { billOfLading: example.billOfLading, booking: example.booking };
    const awaitingBox = awaitingReleaseBox(carrier);
    return {
      cancelled: document(cancelled),
      noContainers: document(noContainers),
      unreadable: document(unreadable),
      unknownBox,
      awaitingRelease: awaitingBox && { box: awaitingBox, booking: awaitingReleaseBooking(carrier) },
    };
  }

  function index(req: IncomingMessage, res: ServerResponse): void {
    const base = publicBase(req);
    send(res, 200, {
      name: "Quayside carrier simulator",
      standard: `DCSA Track & Trace ${API_VERSION}`,
      carriers: CARRIERS.map((carrier) => ({
        scac: carrier.scac,
        name: carrier.name,
        eventsUrl: `${base}/${carrier.scac}/v2/events`,
        pointToPointUrl: `${base}/${carrier.scac}/v1/point-to-point-routes`,
        portSchedulesUrl: `${base}/${carrier.scac}/v1/port-schedules`,
        auth: auth.get(carrier.scac)?.kind ?? "none",
        examples: examplesOf(carrier),
      })),
      vesselPositionUrl: `${base}/vessels/position?imo={IMO}&mmsi={MMSI}`,
      vesselPositionByNameUrl: `${base}/vessels/position?name={NAME}`,
      portAreaUrl: `${base}/vessels/area?port={UNLOCODE}`,
      admin: {
        state: `${base}/_admin/state`,
        faults: `${base}/_admin/faults/{SCAC}`,
        habits: `${base}/_admin/habits/{SCAC}`,
        clock: `${base}/_admin/clock`,
      },
    });
  }

  /** GET /terminals/<SMDG code>/containers/<box>: a terminal's container inquiry (simulator/terminals.ts). */
  function answerTerminal(req: IncomingMessage, res: ServerResponse, url: URL, segments: string[]): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const [, code, resource, box] = segments;
    if (segments.length !== 4 || resource !== "containers" || !code || !box) {
      send(res, 404, { error: "Ask /terminals/<SMDG code>/containers/<container number>." });
      return;
    }
    const answer = terminalAnswer(world, code, box, url.searchParams, clock.now().getTime());
    send(res, answer.status, answer.body);
  }

  /** GET /feeds/<publisher>.xml: the world's news as RSS (simulator/feeds.ts). */
  function answerFeed(req: IncomingMessage, res: ServerResponse, file: string): void {
    const publisher = file.replace(/\.xml$/, "");
    if (!file.endsWith(".xml") || !isFeedPublisher(publisher)) {
      sendDcsaError(
        req,
        res,
        404,
        "notFound",
        `No feed ${file}; feeds: ${FEED_PUBLISHERS.map((p) => `${p}.xml`).join(", ")}.`,
      );
      return;
    }
    const body = feedXml(publisher, clock.now().getTime(), publicBase(req));
    res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8" });
    res.end(body);
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://simulator.invalid");
    const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const work =
      segments.length === 0
        ? Promise.resolve(index(req, res))
        : segments[0] === "_admin"
          ? handleAdmin(req, res, segments)
          : segments[0] === "vessels" && segments[1] === "position"
            ? Promise.resolve(answerVesselPosition(req, res, url))
            : segments[0] === "vessels" && segments[1] === "area"
              ? Promise.resolve(answerPortArea(req, res, url))
              : segments[0] === "feeds" && segments.length === 2
                ? Promise.resolve(answerFeed(req, res, segments[1]!))
                : segments[0] === "terminals"
                  ? Promise.resolve(answerTerminal(req, res, url, segments))
                  : handleCarrier(req, res, url, segments);
    work.catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      sendDcsaError(req, res, 500, "internalError", `Simulator failure: ${message}`);
    });
  };

  return Object.assign(handler, {
    clock,
    faults,
    habits,
    world,
    shutdown() {
      for (const entry of pending) {
        clearTimeout(entry.timer);
        entry.res.destroy();
      }
      pending.clear();
    },
  });
}

const CS_RESOURCES = new Set(["v1/point-to-point-routes", "v1/port-schedules"]);

/** Whether the request is for a carrier's Commercial Schedules resource (`/<SCAC>/v1/...`). */
function isTnt3Path(req: IncomingMessage): boolean {
  const path = new URL(req.url ?? "/", "http://simulator.invalid").pathname;
  return path.split("/").filter(Boolean).slice(1).join("/") === "v3/events";
}

function isCommercialSchedulesPath(req: IncomingMessage): boolean {
  const path = new URL(req.url ?? "/", "http://simulator.invalid").pathname;
  const segments = path.split("/").filter(Boolean);
  return CS_RESOURCES.has(segments.slice(1).join("/"));
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        handler.shutdown();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
