import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARRIERS } from "../../src/domain/carriers/carrier-directory";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";
import { refusalEnvelope, sealinesSchema } from "./compat-schema";
import { compatGet } from "./support";

/**
 * An operator has put every carrier under maintenance and disabled ZIM: no carrier can be asked, so
 * none is called (no simulator runs) and each refusal comes from the directory alone.
 */
let app: TestApp;
let org: OrgWithKey;
const box = containerNumber("MSCU", 123_456);

beforeAll(async () => {
  const status = CARRIERS.map((c) => `${c.scac}=${c.scac === "ZIMU" ? "disabled" : "maintenance"}`).join(",");
  app = await startTestApp({ env: { QUAYSIDE_CARRIER_STATUS: status } });
  org = await app.fixtures.organization();
});
afterAll(() => app?.stop());

async function refusal(params: Record<string, string>) {
  const answer = await compatGet(app, org.key, "/tracking", params);
  expect(answer.status).toBe(200);
  return refusalEnvelope.parse(answer.body);
}

describe("carriers the operator took out of rotation", () => {
  it("SEALINE_UNDER_MAINTENANCE for a named carrier under maintenance", async () => {
    const answer = await refusal({ number: box, sealine: "MSCU" });
    expect(answer.message).toBe("SEALINE_UNDER_MAINTENANCE");
    expect(answer.detail).toMatch(/MSCU/);
  });

  it("SEALINE_TEMPORARY_DISABLED for a named carrier the operator disabled", async () => {
    expect((await refusal({ number: containerNumber("ZIMU", 123_456), sealine: "ZIMU" })).message).toBe(
      "SEALINE_TEMPORARY_DISABLED",
    );
  });

  it("AUTO_CANT_DETECT_SEALINE when the carrier is to be detected and no carrier can be placed", async () => {
    for (const sealine of [undefined, "", "auto"]) {
      const params: Record<string, string> = { number: box };
      if (sealine !== undefined) params.sealine = sealine;
      expect((await refusal(params)).message).toBe("AUTO_CANT_DETECT_SEALINE");
    }
  });

  it("/info/sealines lists carriers under maintenance but not the disabled one; no refusal spent a slot", async () => {
    const answer = await compatGet(app, org.key, "/info/sealines");
    const lines = sealinesSchema.parse(answer.body.data);
    expect(lines.some((l) => l.scac_codes.includes("MSCU"))).toBe(true);
    expect(lines.some((l) => l.scac_codes.includes("ZIMU"))).toBe(false);
    expect(
      await app.services.db.prisma.shipmentSlot.count({ where: { organizationId: org.organizationId } }),
    ).toBe(0);
  });
});
