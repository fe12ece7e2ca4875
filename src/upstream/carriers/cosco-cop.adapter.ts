import { randomUUID } from "node:crypto";
import { foldText, searchPorts } from "../../domain/ports/port-directory";
import { type Clock, systemClock } from "../../lib/clock";
import type { CopHmacAuth } from "./auth";
import type { CarrierAdapter, CarrierOutcome } from "./carrier-adapter";
import type { CarrierBudget, CarrierCourtesy } from "./carrier-courtesy";
import { type CopPlace, type CopPlaceResolver, mapCopTracking } from "./cosco-cop.mapper";
import { signCopRequest } from "./cosco-cop.signing";

/**
 * COSCO Open-api Platform cargo tracking (github.com/cop-cos/COP, docs/info-cargotracking.md): one
 * signed GET per lookup, `{baseUrl}/info/tracking/{number}?numberType=bl|bkg|cntr`, with baseUrl the
 * documented service address (`https://api.lines.coscoshipping.com/service`). Its answer goes through
 * the COP mapper into DCSA events, so the gateway and the DCSA mapper take it from there. The
 * account's budget (1,000 a day, 30,000 a month, README_en.md "API List") is spent through the same
 * courtesy as the DCSA carriers'.
 */
export interface CoscoCopAdapterOptions {
  scac: string;
  baseUrl: string;
  auth: CopHmacAuth;
  clock?: Clock;
  fetch?: typeof fetch;
  timeoutMs?: number;
  courtesy?: CarrierCourtesy;
  budget?: CarrierBudget;
  /** A fresh nonce per request (a test pins it). */
  nonce?: () => string;
  resolvePlace?: CopPlaceResolver;
}

const NUMBER_TYPES = { bl: "bl", booking: "bkg", container: "cntr" } as const;

export function createCoscoCopAdapter(options: CoscoCopAdapterOptions): CarrierAdapter {
  const clock = options.clock ?? systemClock;
  const doFetch = options.fetch ?? fetch;
  const base = new URL(options.baseUrl.replace(/\/+$/, ""));
  return {
    async fetchEvents(query, signal): Promise<CarrierOutcome> {
      if (options.courtesy) {
        const admission = await options.courtesy.admit(options.scac, options.budget, signal);
        if (!admission.ok) return { kind: "rate-limited", retryAfterSeconds: admission.retryAfterSeconds };
      }
      const url = new URL(
        `${base.pathname}/info/tracking/${encodeURIComponent(query.reference)}?numberType=${NUMBER_TYPES[query.referenceType]}`,
        base,
      );
      const headers = signCopRequest(options.auth, {
        method: "GET",
        pathAndQuery: `${url.pathname}${url.search}`,
        date: clock.now(),
        nonce: (options.nonce ?? randomUUID)(),
      });
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
      let response: Response;
      try {
        response = await doFetch(url, {
          headers: { ...headers, accept: "application/json" },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          redirect: "manual",
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const timedOut = timeout.aborted;
        return {
          kind: "unreachable",
          reason: `${options.scac} COP: ${timedOut ? "no answer in time" : (error as Error).message}`,
          cause: timedOut ? "timeout" : "connection",
        };
      }
      if (response.status === 401 || response.status === 403) {
        return {
          kind: "unauthorized",
          reason: `${options.scac} COP refused the signature (${response.status})`,
        };
      }
      if (response.status === 429) {
        const seconds = Number(response.headers.get("retry-after"));
        if (options.courtesy && Number.isFinite(seconds) && seconds > 0) {
          await options.courtesy.coolDown(options.scac, seconds * 1000);
        }
        return {
          kind: "rate-limited",
          retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null,
        };
      }
      if (response.status === 404) return { kind: "not-found" };
      if (!response.ok) {
        return {
          kind: "unreachable",
          reason: `${options.scac} COP answered ${response.status}`,
          cause: "status",
        };
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return { kind: "malformed", reason: `${options.scac} COP answer is not JSON` };
      }
      const mapped = mapCopTracking(body, {
        referenceType: query.referenceType,
        fetchedAt: clock.now(),
        resolvePlace: options.resolvePlace ?? resolveCopPlace,
      });
      if (mapped.kind !== "found") return mapped;
      return { kind: "found", events: mapped.events, pages: 1, truncated: false };
    },
  };
}

/**
 * A COP place text to a port of the catalogue. A facility line is `Facility,City,State,Country` (state
 * may be empty): the city is searched and the country, named in English, must be the port's. A leg's
 * port is a bare name (`Qingdao`, `Long Beach`): searched as it is, and an ambiguous bare name takes
 * the catalogue's first. A city written with its port district (`Shenzhen (Yantian)`, `Cai Mep-Thi
 * Vai`) is tried as the whole, the district, and the part before it.
 */
export function resolveCopPlace(placeText: string): CopPlace | undefined {
  const parts = placeText.split(",").map((p) => p.trim());
  const city = parts.length >= 3 ? parts[parts.length - 3] : parts[0];
  const country = parts.length >= 3 ? foldText(parts[parts.length - 1] ?? "") : undefined;
  if (!city) return undefined;
  const candidates = [
    city,
    /\(([^)]+)\)/.exec(city)?.[1],
    city.replace(/\s*\(.*$/, ""),
    city.split(/[-/]/)[0],
  ].filter((c): c is string => Boolean(c?.trim()));
  for (const candidate of new Set(candidates.map((c) => c.trim()))) {
    const wanted = foldText(candidate);
    const found = searchPorts(candidate).ports.find(
      (port) =>
        (foldText(port.city ?? "") === wanted || foldText(port.name) === wanted) &&
        (country === undefined || countryNames(port.countryCode, port.country).includes(country)),
    );
    if (found) return { unLocode: found.locode, timeZone: found.timeZone };
  }
  return undefined;
}

const englishCountry = new Intl.DisplayNames(["en"], { type: "region" });

function countryNames(countryCode: string, catalogueName: string | null): string[] {
  const names = [catalogueName ?? ""];
  try {
    names.push(englishCountry.of(countryCode) ?? "");
  } catch {
    // Not a region code Intl knows: the catalogue's own name is all there is.
  }
  return names.filter(Boolean).map(foldText);
}
