/**
 * Issue 41: how partner events join a carrier's document (docs/decisions/partner-events.md), and the
 * inbound signature. Pure: the precedence rule and the facts that follow from it.
 */
import { describe, expect, it } from "vitest";
import { boxMilestones } from "../../../src/domain/demurrage/dnd-assessment";
import { checkPartnerEvent, type PartnerEventFacts } from "../../../src/domain/partners/partner-event";
import { mergePartnerEvents } from "../../../src/domain/partners/partner-merge";
import { checkPartnerSignature, partnerSignature } from "../../../src/domain/partners/partner-signature";
import { journeyEnds } from "../../../src/domain/tracking/journey-ends";
import { importDocument } from "../demurrage/fixtures";

const NOW = new Date("2026-11-25T12:00:00Z");
const discharged = importDocument({
  milestones: [{ code: "DISC", at: "2026-11-20T08:00:00Z", actual: true }],
  eta: "2026-11-20T02:00:00Z",
  fetchedAt: "2026-11-21T00:00:00Z",
});

function partner(input: Record<string, unknown>): PartnerEventFacts {
  const check = checkPartnerEvent({ shipment: "SHP-1", eventClassifierCode: "ACT", ...input }, NOW);
  if (!check.ok) throw new Error(check.message);
  const { shipment: _shipment, ...facts } = check.facts;
  return { ...facts, sourceId: "src-1", sourceName: "Harbour Haulage" };
}

const gateOut = partner({
  eventId: "t-1",
  eventType: "EQUIPMENT",
  eventCode: "GTOT",
  emptyIndicatorCode: "LADEN",
  eventDateTime: "2026-11-21T09:30:00-08:00",
  unLocationCode: "USLAX",
});
const emptyReturn = partner({
  eventId: "t-2",
  eventType: "EQUIPMENT",
  eventCode: "GTIN",
  emptyIndicatorCode: "EMPTY",
  eventDateTime: "2026-11-24T10:00:00-08:00",
  unLocationCode: "USLGB",
  locationName: "Long Beach empty depot",
});

describe("partner events on a carrier's document", () => {
  it("a partner's gate-out and empty return close both clocks' milestones and deliver the box, named with their source", () => {
    const { document, outcomes } = mergePartnerEvents(discharged, [emptyReturn, gateOut]);
    expect([...outcomes.values()]).toEqual(["applied", "applied"]);
    const box = document.containers[0]!;
    expect(box.events.map((e) => [e.eventCode, e.source?.name ?? "carrier"])).toEqual([
      ["DISC", "carrier"],
      ["GTOT", "Harbour Haulage"],
      ["GTIN", "Harbour Haulage"],
    ]);
    expect(box.events[1]).toMatchObject({
      statusCode: "CGO",
      localDateTime: "2026-11-21 09:30:00",
      utcOffset: "-08:00",
    });
    expect(boxMilestones(document, box)).toEqual({
      dischargedAt: "2026-11-20T08:00:00Z",
      gatedOutAt: "2026-11-21T17:30:00.000Z",
      emptyReturnedAt: "2026-11-24T18:00:00.000Z",
    });
    // Port to port: the laden gate-out at the port of discharge is the delivery (the carrier's own rule).
    expect(document).toMatchObject({ status: "DELIVERED", deliveredAt: "2026-11-21T17:30:00.000Z" });
    // The carrier's answer, the base of every later merge, is untouched.
    expect(discharged.containers[0]!.events).toHaveLength(1);
  });

  it("a carrier's actual event of the same milestone stands; the partner's is superseded", () => {
    const carrierOut = importDocument({
      milestones: [
        { code: "DISC", at: "2026-11-20T08:00:00Z", actual: true },
        { code: "GTOT", at: "2026-11-21T20:00:00Z", actual: true },
      ],
      eta: null,
      fetchedAt: "2026-11-22T00:00:00Z",
    });
    const { document, outcomes } = mergePartnerEvents(carrierOut, [gateOut]);
    expect([...outcomes.values()]).toEqual(["superseded"]);
    expect(document.containers[0]!.events.map((e) => e.instant)).toEqual([
      "2026-11-20T08:00:00Z",
      "2026-11-21T20:00:00Z",
    ]);
  });

  it("a carrier's later report of a milestone a partner posted wins on the next version", () => {
    const first = mergePartnerEvents(discharged, [gateOut]);
    expect(first.document.containers[0]!.events.map((e) => e.source?.eventId ?? "carrier")).toEqual([
      "carrier",
      "t-1",
    ]);
    const carrierCaughtUp = importDocument({
      milestones: [
        { code: "DISC", at: "2026-11-20T08:00:00Z", actual: true },
        { code: "GTOT", at: "2026-11-21T18:00:00Z", actual: true },
      ],
      eta: null,
      fetchedAt: "2026-11-22T00:00:00Z",
    });
    const next = mergePartnerEvents(carrierCaughtUp, [gateOut]);
    expect([...next.outcomes.values()]).toEqual(["superseded"]);
    expect(boxMilestones(next.document, next.document.containers[0]!).gatedOutAt).toBe(
      "2026-11-21T18:00:00Z",
    );
  });

  it("a milestone on the other side of the discharge is not the same one (the export's gate-out)", () => {
    const exportSide = importDocument({
      milestones: [
        { code: "GTOT", at: "2026-10-01T08:00:00Z", actual: true, where: "CNSHA" },
        { code: "DISC", at: "2026-11-20T08:00:00Z", actual: true },
      ],
      eta: null,
      fetchedAt: "2026-11-21T00:00:00Z",
    });
    const byName = partner({
      eventId: "t-9",
      eventType: "EQUIPMENT",
      eventCode: "GTOT",
      emptyIndicatorCode: "LADEN",
      eventDateTime: "2026-11-21T09:30:00-08:00",
      locationName: "Terminal gate",
    });
    expect([...mergePartnerEvents(exportSide, [byName]).outcomes.values()]).toEqual(["applied"]);
  });

  it("a partner's actual event replaces the carrier's estimate of the same milestone", () => {
    const estimated = importDocument({
      milestones: [
        { code: "DISC", at: "2026-11-20T08:00:00Z", actual: true },
        { code: "GTOT", at: "2026-11-23T08:00:00Z", actual: false },
      ],
      eta: null,
      fetchedAt: "2026-11-21T00:00:00Z",
    });
    const box = mergePartnerEvents(estimated, [gateOut]).document.containers[0]!;
    expect(box.events.map((e) => [e.eventCode, e.actual, e.source?.sourceId ?? null])).toEqual([
      ["DISC", true, null],
      ["GTOT", true, "src-1"],
    ]);
  });

  it("an arrival at the consignee's warehouse is the journey's actual end (postpod) and its delivery", () => {
    const arrived = partner({
      eventId: "t-3",
      eventType: "TRANSPORT",
      eventCode: "ARRI",
      modeOfTransport: "TRUCK",
      facilityTypeCode: "CLOC",
      eventDateTime: "2026-11-21T14:00:00-08:00",
      locationName: "Ontario DC",
      latitude: 34.06,
      longitude: -117.65,
    });
    const { document } = mergePartnerEvents(discharged, [arrived]);
    expect(journeyEnds(document).destination).toMatchObject({
      instant: "2026-11-21T22:00:00.000Z",
      actual: true,
    });
    expect(document.locations.at(-1)).toMatchObject({ name: "Ontario DC", lat: 34.06 });
    expect(document.currentPosition).toEqual({ lat: 34.06, lng: -117.65 });
    expect(document).toMatchObject({ status: "DELIVERED", deliveredAt: "2026-11-21T22:00:00.000Z" });
    expect(document.containers[0]!.events.at(-1)).toMatchObject({
      statusCode: "CDC",
      description: "Delivered to consignee",
    });
  });
});

describe("a partner event's validation", () => {
  it("names the field and the rule", () => {
    const bad = (input: Record<string, unknown>) => {
      const check = checkPartnerEvent(
        {
          eventId: "x",
          shipment: "SHP-1",
          eventDateTime: "2026-11-21T09:30:00Z",
          unLocationCode: "USLAX",
          ...input,
        },
        NOW,
      );
      return check.ok ? "ok" : check.message;
    };
    expect(bad({ eventType: "EQUIPMENT", eventCode: "LOAD" })).toMatch(/GTOT, GTIN, PICK or DROP/);
    expect(bad({ eventType: "TRANSPORT", eventCode: "DEPA" })).toMatch(/mode_of_transport/);
    expect(bad({ eventType: "EQUIPMENT", eventCode: "GTOT", eventDateTime: "2026-11-21 09:30" })).toMatch(
      /event_date_time/,
    );
    expect(bad({ eventType: "EQUIPMENT", eventCode: "GTOT", eventDateTime: "2026-12-21T09:30:00Z" })).toMatch(
      /future/,
    );
    expect(bad({ eventType: "EQUIPMENT", eventCode: "GTOT", equipmentReference: "MSKU1234566" })).toMatch(
      /check digit/i,
    );
    expect(bad({ eventType: "EQUIPMENT", eventCode: "GTOT" })).toBe("ok");
  });
});

describe("the inbound signature", () => {
  const secret = "psec_test";
  const body = '{"events":[]}';
  const t = "1764000000";
  it("accepts the genuine one and refuses a forged, stale or missing one", () => {
    const sig = partnerSignature(secret, t, body);
    expect(
      checkPartnerSignature(secret, { timestamp: t, signature: sig, body: body, nowSeconds: 1764000100 }),
    ).toEqual({ ok: true });
    expect(
      checkPartnerSignature(secret, {
        timestamp: t,
        signature: sig,
        body: `${body} `,
        nowSeconds: 1764000100,
      }),
    ).toEqual({
      ok: false,
      reason: "forged",
    });
    expect(
      checkPartnerSignature("psec_other", {
        timestamp: t,
        signature: sig,
        body: body,
        nowSeconds: 1764000100,
      }),
    ).toEqual({
      ok: false,
      reason: "forged",
    });
    expect(
      checkPartnerSignature(secret, { timestamp: t, signature: sig, body: body, nowSeconds: 1764000301 }),
    ).toEqual({ ok: false, reason: "stale" });
    expect(
      checkPartnerSignature(secret, {
        timestamp: undefined,
        signature: sig,
        body: body,
        nowSeconds: 1764000000,
      }),
    ).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});
