import { describe, expect, it } from "vitest";
import {
  activeHolds,
  type CarrierSignals,
  currentTerminalFacts,
  type TerminalAnswer,
  terminalEvents,
} from "../../../src/domain/terminals/terminal-facts";

const NOW = new Date("2026-03-10T12:00:00Z");

function answer(overrides: Partial<TerminalAnswer> = {}): TerminalAnswer {
  return {
    observedAt: "2026-03-10T09:00:00.000Z",
    availableForPickup: false,
    holds: [],
    lastFreeDayLine: null,
    lastFreeDayTerminal: null,
    yardLocation: null,
    dischargedAt: "2026-03-09T04:00:00.000Z",
    gateOutAt: null,
    events: [],
    ...overrides,
  };
}

describe("terminal facts", () => {
  it("drops a hold the terminal no longer lists: a cleared hold is absent, not released", () => {
    const held = currentTerminalFacts(
      {
        answer: answer({ holds: [{ type: "customs", status: "hold", description: "EXAM" }] }),
        carrier: null,
      },
      NOW,
    );
    expect(held?.holds).toEqual([{ type: "customs", status: "hold", description: "EXAM" }]);
    const cleared = currentTerminalFacts(
      { answer: answer({ observedAt: "2026-03-10T11:00:00.000Z", availableForPickup: true }), carrier: null },
      NOW,
    );
    expect(cleared?.holds).toEqual([]);
    expect(cleared?.readyForPickup).toBe(true);
    expect(JSON.stringify(cleared)).not.toMatch(/released/i);
  });

  it("reads a blank hold as absent, never as released", () => {
    expect(
      activeHolds([
        { type: "Customs", status: "" },
        { type: "freight", status: null },
        { type: "USDA", status: "Hold", description: " PPQ " },
        { type: "TMF", status: "Hold" },
      ]),
    ).toEqual([{ type: "usda", status: "hold", description: "PPQ" }]);
  });

  it("drops a terminal answer 24 hours old and a minute", () => {
    const old = answer({ observedAt: new Date(NOW.getTime() - 24 * 3_600_000 - 60_000).toISOString() });
    expect(currentTerminalFacts({ answer: old, carrier: null }, NOW)).toBeNull();
    const justFresh = answer({ observedAt: new Date(NOW.getTime() - 23 * 3_600_000).toISOString() });
    expect(currentTerminalFacts({ answer: justFresh, carrier: null }, NOW)?.dischargedAt).toBe(
      "2026-03-09T04:00:00.000Z",
    );
  });

  it("drops carrier signals from a carrier answer older than 24 hours", () => {
    const carrier: CarrierSignals = {
      observedAt: "2026-03-09T11:00:00.000Z",
      signals: [{ kind: "hold", holdType: "customs", at: "2026-03-09T10:00:00.000Z", code: "HOLD/CUS" }],
    };
    expect(currentTerminalFacts({ answer: null, carrier }, NOW)).toBeNull();
  });

  it("prefers the line's last free day over the terminal's", () => {
    const both = currentTerminalFacts(
      { answer: answer({ lastFreeDayLine: "2026-03-14", lastFreeDayTerminal: "2026-03-13" }), carrier: null },
      NOW,
    );
    expect(both).toMatchObject({
      lastFreeDay: "2026-03-14",
      lastFreeDaySource: "line",
      lastFreeDayLine: "2026-03-14",
      lastFreeDayTerminal: "2026-03-13",
    });
    const terminalOnly = currentTerminalFacts(
      { answer: answer({ lastFreeDayTerminal: "2026-03-13" }), carrier: null },
      NOW,
    );
    expect(terminalOnly).toMatchObject({ lastFreeDay: "2026-03-13", lastFreeDaySource: "terminal" });
  });

  it("lets a carrier release newer than the terminal's answer lift the hold, and an older one not", () => {
    const held = answer({ holds: [{ type: "customs", status: "hold", description: null }] });
    const release = (at: string): CarrierSignals => ({
      observedAt: "2026-03-10T11:30:00.000Z",
      signals: [
        {
          kind: "hold",
          holdType: "customs",
          at: "2026-03-09T06:00:00.000Z",
          code: "CUSTOMS_SELECTED_FOR_INSPECTION",
        },
        { kind: "release", holdType: "customs", at, code: "CUSTOMS_RELEASED" },
      ],
    });
    expect(
      currentTerminalFacts({ answer: held, carrier: release("2026-03-10T10:00:00.000Z") }, NOW)?.holds,
    ).toEqual([]);
    expect(
      currentTerminalFacts({ answer: held, carrier: release("2026-03-10T08:00:00.000Z") }, NOW)?.holds.map(
        (h) => h.type,
      ),
    ).toEqual(["customs"]);
  });

  it("builds facts from carrier signals alone when no terminal answered", () => {
    const facts = currentTerminalFacts(
      {
        answer: null,
        carrier: {
          observedAt: "2026-03-10T11:00:00.000Z",
          signals: [
            { kind: "hold", holdType: "freight", at: "2026-03-10T07:00:00.000Z", code: "HOLD/SRM" },
            {
              kind: "available",
              holdType: null,
              at: "2026-03-10T08:00:00.000Z",
              code: "AVAILABLE_FOR_PICKUP",
            },
          ],
        },
      },
      NOW,
    );
    expect(facts).toMatchObject({
      availableForPickup: true,
      readyForPickup: false,
      holds: [{ type: "freight", status: "hold", description: "HOLD/SRM" }],
      checkedAt: "2026-03-10T11:00:00.000Z",
    });
  });

  it("counts a box with only a pending hold as ready for pickup once available", () => {
    const pending = currentTerminalFacts(
      {
        answer: answer({
          availableForPickup: true,
          holds: [{ type: "terminal", status: "pending", description: null }],
        }),
        carrier: null,
      },
      NOW,
    );
    expect(pending?.readyForPickup).toBe(true);
  });

  it("merges the terminal's and the carrier's events oldest first, each once", () => {
    const events = terminalEvents(
      [
        { kind: "discharged", holdType: null, at: "2026-03-09T04:00:00.000Z", source: "terminal" },
        { kind: "discharged", holdType: null, at: "2026-03-09T04:00:00.000Z", source: "terminal" },
      ],
      {
        observedAt: "2026-03-10T11:00:00.000Z",
        signals: [{ kind: "hold", holdType: "customs", at: "2026-03-08T22:00:00.000Z", code: "HOLD/CUS" }],
      },
    );
    expect(events.map((e) => `${e.source}:${e.kind}`)).toEqual([
      "carrier:hold_placed",
      "terminal:discharged",
    ]);
  });
});
