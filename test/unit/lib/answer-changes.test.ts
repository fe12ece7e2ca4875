import { afterEach, describe, expect, it } from "vitest";
import {
  type AnswerChange,
  answersChanged,
  asOneWrite,
  onAnswersChanged,
} from "../../../src/lib/answer-changes";

const heard: { cache: AnswerChange[]; facts: AnswerChange[] } = { cache: [], facts: [] };
const stops: (() => void)[] = [];

function listen() {
  stops.push(
    onAnswersChanged(async (change) => {
      heard.cache.push(change);
    }),
    onAnswersChanged(
      async (change) => {
        heard.facts.push(change);
      },
      { oncePerWrite: true },
    ),
  );
}

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  heard.cache = [];
  heard.facts = [];
});

const shipment = { id: "s1", organizationId: "o1" };

describe("answer changes of one write", () => {
  it("are heard by answer caches at each step and by the facts kept from them once, merged, at its end", async () => {
    listen();
    let factsWhileWriting = -1;
    await asOneWrite(async () => {
      await answersChanged({ documents: ["d1"] });
      await answersChanged({ containers: ["MSCU1234565", "MSCU1234565"] });
      await answersChanged({ shipments: [shipment], organizations: ["o1"] });
      factsWhileWriting = heard.facts.length;
    });
    expect(heard.cache).toHaveLength(3);
    expect(factsWhileWriting).toBe(0);
    expect(heard.facts).toEqual([
      { shipments: [shipment], containers: ["MSCU1234565"], documents: ["d1"], organizations: ["o1"] },
    ]);
  });

  it("are heard at once outside a write, and a write inside another is part of it", async () => {
    listen();
    await answersChanged({ documents: ["d1"] });
    expect(heard.facts).toEqual([{ documents: ["d1"] }]);
    await asOneWrite(async () => {
      await asOneWrite(() => answersChanged({ documents: ["d2"] }));
      expect(heard.facts).toHaveLength(1);
      await answersChanged({ documents: ["d3"] });
    });
    expect(heard.facts.slice(1)).toEqual([{ documents: ["d2", "d3"] }]);
  });

  it("still reach the facts when the write fails after some of it committed", async () => {
    listen();
    await expect(
      asOneWrite(async () => {
        await answersChanged({ documents: ["d1"] });
        throw new Error("the carrier's answer could not be stored");
      }),
    ).rejects.toThrow("could not be stored");
    expect(heard.facts).toEqual([{ documents: ["d1"] }]);
  });

  it("derived from others (facts recomputed) reach answer caches only, inside a write or not", async () => {
    listen();
    await answersChanged({ shipments: [shipment] }, { derived: true });
    await asOneWrite(() => answersChanged({ shipments: [shipment] }, { derived: true }));
    expect(heard.cache).toHaveLength(2);
    expect(heard.facts).toEqual([]);
  });
});
