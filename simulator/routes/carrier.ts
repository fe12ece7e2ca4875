/**
 * A carrier's resources under `/<SCAC>/`: T&T 2.2 `v2/events`, T&T 3.0 `v3/events`, Commercial Schedules
 * 1.0 `v1/point-to-point-routes` and `v1/port-schedules`, the OAuth2 token endpoint and COSCO's COP
 * tracking, with the carrier's faults, habits and authentication in front of them.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Carrier } from "../../reference-data/carriers";
import { authorize, tokenRequest } from "../auth";
import type { SimulatorContext } from "../context";
import { copSignatureValid, copTrackingAnswer } from "../cop";
import type { DcsaEvent } from "../dcsa-types";
import { type EventsQuery, encodeCursor, filterEvents, parseEventsQuery, sortEvents } from "../events-query";
import { answeredAboutAnotherBox, type Fault } from "../faults";
import { applyEventHabits, eventsBody } from "../habits";
import { API_VERSION, publicBase, readBody, send } from "../http";
import {
  CS_API_VERSION,
  encodeCsCursor,
  parsePointToPointQuery,
  parsePortScheduleQuery,
  pointToPointRoutes,
  renderPortSchedule,
} from "../schedules";
import { TNT3_API_VERSION, tnt3Error, toVersion3 } from "../tnt3";
import { awaitingReleaseBooking, awaitingReleaseBox, awaitingReleaseEvents } from "../world/awaiting-release";
import { exampleDocumentEvents, exampleDocumentFor } from "../world/example-references";
import { findPort } from "../world/ports";
import { findSimulatedCarrier } from "../world/references";
import type { Shipment } from "../world/world";

const DEFAULT_SLOW_MS = 5000;
const DEFAULT_RETRY_AFTER_SECONDS = 30;

export function carrierRoutes(ctx: SimulatorContext) {
  const {
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
    wait,
    dcsaError,
    sendDcsaError,
  } = ctx;

  async function handleCarrier(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    segments: string[],
  ): Promise<void> {
    const carrier = findSimulatedCarrier(segments[0] ?? "");
    if (!carrier) {
      sendDcsaError(req, res, 404, {
        reason: "notFound",
        message: `No carrier with SCAC ${segments[0] ?? ""} is simulated.`,
      });
      return;
    }
    requests.set(carrier.scac, (requests.get(carrier.scac) ?? 0) + 1);
    const rest = segments.slice(1).join("/");
    if (segments[1] === "cop") {
      answerCop(req, res, { carrier, url, path: segments.slice(2) });
      return;
    }
    const isTnt3 = rest === "v3/events";
    const isEvents = rest === "v2/events" || isTnt3;
    const isToken = rest === "oauth/token";
    const isSchedules = rest === "v1/point-to-point-routes";
    const isPortSchedules = rest === "v1/port-schedules";
    if (!isEvents && !isToken && !isSchedules && !isPortSchedules) {
      sendDcsaError(req, res, 404, { reason: "notFound", message: `No resource ${url.pathname}.` });
      return;
    }
    if (!(await wait(latencyMs, res))) return;
    const fault = faults.get(carrier.scac);
    if (fault && (await applyFault(fault, req, res, { carrier, url }))) return;
    const refusal = habits.refusal(carrier.scac, clock.now().getTime());
    if (refusal) {
      sendDcsaError(req, res, 429, {
        reason: "tooManyRequests",
        message: `${carrier.name} allows no more requests now.`,
        headers: {
          "Retry-After": String(refusal.retryAfterSeconds),
        },
      });
      return;
    }
    const strategy = auth.get(carrier.scac) ?? { kind: "none" };
    if (isToken) {
      if (req.method !== "POST") {
        sendDcsaError(req, res, 405, {
          reason: "methodNotAllowed",
          message: "Use POST to request a token.",
          headers: { Allow: "POST" },
        });
        return;
      }
      if (strategy.kind !== "oauth2") {
        send(res, 404, { error: "not_found", error_description: `${carrier.scac} does not use OAuth2.` });
        return;
      }
      const outcome = tokenRequest(req, await readBody(req), {
        auth: strategy,
        scac: carrier.scac,
        tokens,
        nowMs: clock.now().getTime(),
        tokenUrl: `${publicBase(req)}${url.pathname}`,
      });
      send(res, outcome.status, outcome.body, outcome.headers);
      return;
    }
    if (req.method !== "GET") {
      sendDcsaError(req, res, 405, {
        reason: "methodNotAllowed",
        message: `Only GET is supported on /${rest}.`,
        headers: {
          Allow: "GET",
        },
      });
      return;
    }
    const allowed = authorize(req, {
      auth: strategy,
      scac: carrier.scac,
      tokens,
      nowMs: clock.now().getTime(),
    });
    if (!allowed.ok) {
      sendDcsaError(req, res, 401, {
        reason: "unauthorized",
        message: allowed.message,
        headers: allowed.challenge ? { "WWW-Authenticate": allowed.challenge } : {},
      });
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
    { carrier, url, path }: { carrier: Carrier; url: URL; path: string[] },
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
    { carrier, url }: { carrier: Carrier; url: URL },
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
        sendDcsaError(req, res, status, {
          reason: "internalError",
          message: `${carrier.name} is failing (simulated).`,
          headers: retry,
        });
        return true;
      }
      case "rate-limited": {
        const seconds = fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
        sendDcsaError(req, res, 429, {
          reason: "tooManyRequests",
          message: "Rate limit exceeded (simulated).",
          headers: {
            "Retry-After": String(seconds),
          },
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
      case "push-late":
      case "push-duplicate":
      case "push-bad-signature":
      case "subscriptions-refused":
        // Habits, applied to the events answer itself (answerEvents), and push and subscription faults,
        // applied to pushes and to the subscriptions route.
        return false;
    }
  }

  return { handleCarrier, eventsForQuery };
}
