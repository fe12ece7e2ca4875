import { describe, expect, it } from "vitest";
import { expectedDischargeAt } from "../../../src/domain/demurrage/expected-discharge";
import { importDocument } from "./fixtures";

// The carrier plans arrival on Friday 22 November 2024 and the box's discharge 20 hours later.
const CARRIER_ARRIVAL = "2024-11-22T18:00:00.000Z";
const CARRIER_DISCHARGE = "2024-11-23T14:00:00.000Z";

describe("the expected discharge a demurrage projection starts from", () => {
  const doc = importDocument({
    milestones: [{ code: "DISC", at: CARRIER_DISCHARGE, actual: false }],
    eta: CARRIER_ARRIVAL,
    fetchedAt: "2024-11-20T00:00:00.000Z",
  });
  const box = doc.containers[0]!;

  it("is the carrier's estimated discharge when no arrival is predicted", () => {
    expect(expectedDischargeAt(doc, box)).toBe(CARRIER_DISCHARGE);
  });

  it("follows the predicted arrival (the p50), keeping the carrier's planned gap to discharge", () => {
    // Predicted two days later than the carrier says: discharge moves two days too.
    expect(expectedDischargeAt(doc, box, "2024-11-24T18:00:00.000Z")).toBe("2024-11-25T14:00:00.000Z");
  });

  it("is the predicted arrival itself when the carrier gives no discharge estimate", () => {
    const bare = importDocument({
      milestones: [],
      eta: CARRIER_ARRIVAL,
      fetchedAt: "2024-11-20T00:00:00.000Z",
    });
    expect(expectedDischargeAt(bare, bare.containers[0]!, "2024-11-24T18:00:00.000Z")).toBe(
      "2024-11-24T18:00:00.000Z",
    );
  });
});
