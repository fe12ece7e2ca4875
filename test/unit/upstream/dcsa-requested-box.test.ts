/**
 * Issue 39 item 15: a container query answered by the carrier about a different box. The answer is
 * kept to the asked box; when nothing in it is about the asked box, the carrier did not find it (the
 * service's ordinary not-found), with a warning in the operator's log. Bill-of-lading and booking
 * queries answer several boxes and are left as they are.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CarrierQuery } from "../../../src/domain/tracking/carrier-tracker";
import { ManualClock } from "../../../src/lib/clock";
import { type DcsaMapContext, mapDcsaEvents } from "../../../src/upstream/carriers/dcsa-tnt.mapper";
import { dcsaTracker } from "../../../src/upstream/carriers/dcsa-tnt.tracker";
import { BOX, equipment, journeyToSingapore, SIN_A, transport } from "../tracking/dcsa-fixtures";

/** The official DCSA 2.2 example answer (DCSA-OpenAPI, tnt/v2): two moves of APZU4812090 and its ship. */
const OFFICIAL_ANSWER: unknown[] = JSON.parse(
  readFileSync(new URL("../tracking/fixtures/dcsa/tnt-220-response.json", import.meta.url), "utf8"),
);
const ITS_BOX = "APZU4812090";
const OTHER_BOX = "MSCU1234565";
const SIBLING = "MAEU7654321";

function context(reference: string, referenceType: DcsaMapContext["referenceType"]): DcsaMapContext {
  return { reference, referenceType, carrierScac: "MAEU", fetchedAt: new Date("2024-03-01T00:00:00Z") };
}

/** The same journey, its equipment events told about another box. */
const siblingJourney = () =>
  journeyToSingapore().map((event) =>
    event.equipmentReference === BOX ? { ...event, equipmentReference: SIBLING } : event,
  );

describe("a container query answered about another box (the mapper)", () => {
  it("maps the official example for its own box, and refuses it as another box's for any other", () => {
    const own = mapDcsaEvents(OFFICIAL_ANSWER, context(ITS_BOX, "container"));
    expect(own.ok && own.document.containers.map((c) => c.number)).toEqual([ITS_BOX]);

    expect(mapDcsaEvents(OFFICIAL_ANSWER, context(OTHER_BOX, "container"))).toEqual({
      ok: false,
      reason: "other-equipment",
      detail: `asked about container ${OTHER_BOX}, the carrier answered about ${ITS_BOX}`,
      boxes: [ITS_BOX],
    });
  });

  it("keeps the asked box's moves out of an answer that mixes in a sibling's, status and all", () => {
    // The sibling was discharged at Singapore; the asked box is still at the Shanghai terminal.
    const asked = [
      equipment("GTOT", "ACT", "2024-01-02T09:00:00+08:00", BOX, "EMPTY", { place: { locode: "CNSHA" } }),
      equipment("GTIN", "ACT", "2024-01-05T14:00:00+08:00", BOX, "LADEN", { place: { locode: "CNSHA" } }),
    ];
    const result = mapDcsaEvents([...asked, ...siblingJourney()], context(BOX, "container"));
    if (!result.ok) throw new Error(result.detail);
    expect(result.document.containers.map((c) => c.number)).toEqual([BOX]);
    const box = result.document.containers[0]!;
    expect(box.events.filter((e) => e.kind === "EQUIPMENT").map((e) => e.eventCode)).toEqual([
      "GTOT",
      "GTIN",
    ]);
    expect(box.events.some((e) => e.locationKey === "SGSIN")).toBe(false);
    expect(result.warnings).toContain(`event 2 dropped: it is about container ${SIBLING}, not ${BOX}`);
    // The sibling's ship left Shanghai and reached Singapore; the asked box's status is its own.
    const alone = mapDcsaEvents(asked, context(BOX, "container"));
    expect(alone.ok && alone.document.status).toBe(result.document.status);
    expect(result.document.currentPosition).toEqual(alone.ok && alone.document.currentPosition);
  });

  it("drops a vessel event whose equipment references name only other boxes", () => {
    const theirs = { ...transport("ARRI", "ACT", "2024-01-12T06:00:00+08:00", SIN_A) };
    theirs.references = [{ referenceType: "EQ", referenceValue: SIBLING }];
    const result = mapDcsaEvents([...journeyToSingapore().slice(0, 3), theirs], context(BOX, "container"));
    if (!result.ok) throw new Error(result.detail);
    expect(result.document.containers[0]!.events.map((e) => e.eventCode)).not.toContain("ARRI");
  });

  it("reads a box written without its check digit as the asked box, not another one", () => {
    const short = journeyToSingapore().map((event) =>
      event.equipmentReference === BOX ? { ...event, equipmentReference: BOX.slice(0, 10) } : event,
    );
    const result = mapDcsaEvents(short, context(BOX, "container"));
    expect(result.ok && result.document.containers.map((c) => c.number)).toEqual([BOX]);
  });

  it("leaves bill-of-lading and booking answers with all their boxes", () => {
    const both = [...journeyToSingapore(), ...siblingJourney()];
    for (const referenceType of ["bl", "booking"] as const) {
      const result = mapDcsaEvents(both, context("MAEU240012345", referenceType));
      expect(result.ok && result.document.containers.map((c) => c.number).sort()).toEqual([BOX, SIBLING]);
    }
  });
});

describe("a container query answered about another box (the tracker)", () => {
  it("answers not found, and warns the operator with the box asked and the boxes answered", async () => {
    const warnings: Array<{ message: string; details: Record<string, unknown> }> = [];
    const tracker = dcsaTracker(
      { fetchEvents: async () => ({ kind: "found", events: siblingJourney(), pages: 1, truncated: false }) },
      {
        clock: new ManualClock("2024-03-01T00:00:00Z"),
        locationLookup: () => undefined,
        warn: (message, details) => warnings.push({ message, details }),
      },
    );
    const query: CarrierQuery = { scac: "MAEU", reference: BOX, referenceType: "container" };
    expect(await tracker.track(query)).toEqual({ kind: "not-found" });
    expect(warnings).toEqual([
      {
        message: "Carrier answered a container query about another box; treated as not found",
        details: { scac: "MAEU", container: BOX, answeredAbout: [SIBLING] },
      },
    ]);
    // The same answer to a booking query is that booking's box: found.
    const byBooking = await tracker.track({
      scac: "MAEU",
      reference: "MAEU240012345",
      referenceType: "booking",
    });
    expect(byBooking.kind).toBe("found");
  });
});
