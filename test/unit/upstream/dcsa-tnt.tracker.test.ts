/**
 * The tracking service's carrier port over DCSA: events in, the canonical document out, and every
 * failure of the client passed through as the port's answer.
 */
import { describe, expect, it } from "vitest";
import type { CarrierQuery } from "../../../src/domain/tracking/carrier-tracker";
import { ManualClock } from "../../../src/lib/clock";
import type { CarrierAdapter, CarrierOutcome } from "../../../src/upstream/carriers/carrier-adapter";
import { dcsaTracker } from "../../../src/upstream/carriers/dcsa-tnt.tracker";
import { BOX, journeyToSingapore } from "../tracking/dcsa-fixtures";

const clock = new ManualClock("2024-03-01T00:00:00Z");
const BY_BOX: CarrierQuery = { scac: "MAEU", reference: BOX, referenceType: "container" };

function trackerAnswering(outcome: CarrierOutcome) {
  const asked: CarrierQuery[] = [];
  const client: CarrierAdapter = {
    fetchEvents: async (query) => {
      asked.push(query);
      return outcome;
    },
  };
  const tracker = dcsaTracker(client, {
    clock,
    locationLookup: (locode) => (locode === "SGSIN" ? { name: "Singapore", countryCode: "SG" } : undefined),
  });
  return { tracker, asked };
}

const found = (events: unknown[]): CarrierOutcome => ({ kind: "found", events, pages: 1, truncated: false });

describe("dcsaTracker", () => {
  it("answers the carrier's events as our document, fetched at the clock's time, places named by the lookup", async () => {
    const { tracker, asked } = trackerAnswering(found(journeyToSingapore()));
    const answer = await tracker.track(BY_BOX);
    if (answer.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(answer)}`);
    expect(asked).toEqual([BY_BOX]);
    expect(answer.document).toMatchObject({
      reference: BOX,
      referenceType: "container",
      carrierScac: "MAEU",
      fetchedAt: "2024-03-01T00:00:00.000Z",
    });
    expect(answer.document.containers.map((c) => c.number)).toEqual([BOX]);
    expect(answer.document.locations.find((l) => l.unLocode === "SGSIN")?.name).toBe("Singapore");
  });

  it("answers malformed, with the mapper's reason, when the events cannot be read", async () => {
    const { tracker } = trackerAnswering(found([null, 42, { eventType: "IOT" }]));
    const answer = await tracker.track(BY_BOX);
    expect(answer.kind).toBe("malformed");
    if (answer.kind === "malformed") expect(answer.reason).not.toBe("");
  });

  it("passes the client's other answers through unchanged", async () => {
    const endings: CarrierOutcome[] = [
      { kind: "not-found" },
      { kind: "unreachable", reason: "ECONNRESET" },
      { kind: "malformed", reason: "not JSON" },
      { kind: "rate-limited", retryAfterSeconds: 30 },
      { kind: "unauthorized", reason: "401" },
    ];
    for (const ending of endings) {
      expect(await trackerAnswering(ending).tracker.track(BY_BOX)).toEqual(ending);
    }
  });
});
