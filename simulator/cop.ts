import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { DcsaEvent } from "./dcsa-types";
import { INLAND_PLACES } from "./world/inland-places";
import { findPort } from "./world/ports";

/**
 * COSCO's Open-api Platform profile: the world's shipment told in COP's cargo-tracking shape
 * (github.com/cop-cos/COP docs/info-cargotracking.md) behind COP's HMAC check (README_en.md "Hmac
 * Auth"). The simulator checks signatures with its own code, not the client's, so a client that signs
 * wrongly is caught. Switched on per SCAC (`cop` option); the line keeps its DCSA API too.
 */

export interface CopCredentials {
  apiKey: string;
  secretKey: string;
}

/** Whether the request carries a valid COP signature for these credentials. */
export function copSignatureValid(
  req: IncomingMessage,
  pathAndQuery: string,
  credentials: CopCredentials,
): boolean {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const auth = header("x-coscon-authorization") ?? "";
  const field = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(auth)?.[1];
  if (!/^hmac\s/i.test(auth) || field("username") !== credentials.apiKey) return false;
  if (field("algorithm") !== "hmac-sha1") return false;
  const date = header("x-coscon-date");
  const digest = header("x-coscon-digest");
  const nonce = header("x-coscon-content-md5");
  if (!date || !nonce || digest !== `SHA-256=${createHash("sha256").update("").digest("base64")}`)
    return false;
  const text = `X-Coscon-Date: ${date}\nX-Coscon-Digest: ${digest}\nX-Coscon-Content-Md5: ${nonce}\n${req.method ?? "GET"} ${pathAndQuery} HTTP/1.1`;
  const expected = Buffer.from(createHmac("sha1", credentials.secretKey).update(text).digest("base64"));
  const given = Buffer.from(field("signature") ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const COP_WORDS: Readonly<Record<string, string>> = {
  "GTOT/EMPTY": "Empty Equipment Despatched",
  "GTIN/LADEN": "Gate-In at POL",
  "LOAD/LADEN": "Loaded at POL",
  "DISC/LADEN": "Discharged at POD",
  "GTOT/LADEN": "Gate-out from POD",
  "GTIN/EMPTY": "Empty Equipment Returned",
};

/** `2026-10-03T09:40:00+08:00` -> COP's `2026-10-03 09:40` (the wall clock, offset dropped). */
function wallClock(value: string): string {
  return value.slice(0, 16).replace("T", " ");
}

const englishCountry = new Intl.DisplayNames(["en"], { type: "region" });

/** COP's facility line, `Facility,City,State,Country` (state left empty as COP often does). */
function placeText(locode: string | undefined): string | undefined {
  const port = locode ? findPort(locode) : undefined;
  const inland = locode ? INLAND_PLACES.find((p) => p.unLocode === locode) : undefined;
  const place = port ?? inland;
  if (!place) return undefined;
  const facility = port?.terminals[0]?.name ?? `${place.name} Depot`;
  return `${facility.replaceAll(",", " ")},${place.name},,${englishCountry.of(place.countryCode) ?? place.countryCode}`;
}

/** The COP answer for the world's events of one reference; `none` when there are none. */
export function copTrackingAnswer(events: readonly DcsaEvent[], numberType: "bl" | "bkg" | "cntr"): unknown {
  const none = { code: 0, message: "success", data: { type: "none", numberType: "none", content: null } };
  const moves = events
    .filter((e) => e.eventType === "EQUIPMENT" && e.eventClassifierCode === "ACT")
    .flatMap((e) => {
      if (e.eventType !== "EQUIPMENT") return [];
      const words = COP_WORDS[`${e.equipmentEventTypeCode}/${e.emptyIndicatorCode}`];
      const location = placeText(e.eventLocation.UNLocationCode ?? e.transportCall?.UNLocationCode);
      if (!words || !location) return [];
      return [
        {
          uuid: e.eventID,
          containerNumber: e.equipmentReference,
          containerType: e.ISOEquipmentCode,
          containerNumberStatus: words,
          location,
          timeOfIssue: wallClock(e.eventDateTime),
          transportation: e.transportCall?.modeOfTransport === "VESSEL" ? "Vessel" : " ",
        },
      ];
    });
  if (numberType === "cntr") {
    if (moves.length === 0) return none;
    const number = moves[0]?.containerNumber;
    const history = [...moves].reverse();
    const latest = history[0];
    return {
      code: 0,
      message: "success",
      data: {
        type: "cntr",
        numberType: "cntr",
        content: {
          containers: [
            {
              container: {
                containerNumber: number,
                containerType: latest?.containerType,
                label: latest?.containerNumberStatus,
                location: latest?.location,
                locationDateTime: latest?.timeOfIssue,
                transportation: latest?.transportation,
              },
              containerCircleStatus: history,
              containerHistorys: [],
            },
          ],
        },
      },
    };
  }
  // A document: the vessel legs (a leg is one vessel voyage, from its departure to its arrival) and
  // each box's latest move, as COP's B/L and booking answers carry them.
  const legs = new Map<
    string,
    { vesselName?: string; voyageNo?: string; service?: string; from?: DcsaEvent; to?: DcsaEvent }
  >();
  for (const e of events) {
    if (e.eventType !== "TRANSPORT" || e.transportCall.modeOfTransport !== "VESSEL") continue;
    const voyage = e.transportCall.exportVoyageNumber ?? e.transportCall.importVoyageNumber;
    const key = `${e.transportCall.vessel?.vesselIMONumber}/${voyage}`;
    const leg = legs.get(key) ?? {
      vesselName: e.transportCall.vessel?.vesselName,
      voyageNo: voyage,
      service: e.transportCall.carrierServiceCode,
    };
    if (e.transportEventTypeCode === "DEPA" && (!leg.from || e.eventClassifierCode === "ACT")) leg.from ??= e;
    if (e.transportEventTypeCode === "ARRI") leg.to = e;
    legs.set(key, leg);
  }
  if (moves.length === 0 && legs.size === 0) return none;
  const when = (e: DcsaEvent | undefined, classifier: "ACT" | "EST") =>
    e && (classifier === "ACT" ? e.eventClassifierCode === "ACT" : e.eventClassifierCode !== "ACT")
      ? wallClock(e.eventDateTime)
      : null;
  const latestByBox = new Map<string, (typeof moves)[number]>();
  for (const move of moves) latestByBox.set(move.containerNumber, move);
  return {
    code: 0,
    message: "success",
    data: {
      type: numberType,
      numberType: "both",
      content: {
        actualShipment: [...legs.values()].map((leg, i) => ({
          rownum: String(i + 1),
          vesselName: leg.vesselName,
          voyageNo: leg.voyageNo,
          service: leg.service,
          portOfLoading: placeText(
            leg.from?.eventType === "TRANSPORT" ? leg.from.transportCall.UNLocationCode : undefined,
          ),
          portOfDischarge: placeText(
            leg.to?.eventType === "TRANSPORT" ? leg.to.transportCall.UNLocationCode : undefined,
          ),
          actualDepartureDate: when(leg.from, "ACT"),
          expectedDateOfDeparture: when(leg.from, "EST"),
          actualArrivalDate: when(leg.to, "ACT"),
          estimatedDateOfArrival: when(leg.to, "EST"),
        })),
        containerStatus: [...latestByBox.values()].map((move) => ({
          label: move.containerNumberStatus,
          containers: [
            {
              containerNumber: move.containerNumber,
              containerType: move.containerType,
              label: move.containerNumberStatus,
              location: move.location,
              locationDateTime: move.timeOfIssue,
              transportation: move.transportation,
            },
          ],
        })),
      },
    },
  };
}
