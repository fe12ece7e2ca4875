import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Organization } from "../../src/generated/prisma/client";
import { startTestApp, type TestApp } from "../support/app";

/**
 * Slot usage is a counter row kept with the slot's use (issue 37 item 2): taking, freeing and taking
 * back a slot, and slots written any other way, leave the figures every surface reports equal to the
 * slots themselves, and reading them is one statement (it was two counts over the cycle's slots).
 */
let app: TestApp;
let org: Organization;

beforeAll(async () => {
  app = await startTestApp();
  const { organizationId } = await app.fixtures.organization({ plan: "free" });
  org = await app.services.db.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
});
afterAll(() => app?.stop());

const prisma = () => app.services.db.prisma;
const slots = () => app.services.slots;
const take = (reference: string) => prisma().$transaction((tx) => slots().reserve(tx, org, reference));
const free = (reference: string) => prisma().$transaction((tx) => slots().release(tx, org, reference));

/** What the slots themselves say for the current cycle. */
async function counted() {
  const { cycleStart } = await slots().usage(org);
  const where = { organizationId: org.id, cycleStart };
  return {
    used: await prisma().shipmentSlot.count({ where }),
    held: await prisma().shipmentSlot.count({ where: { ...where, releasedAt: null } }),
  };
}

describe("slot usage", () => {
  it("follows every taking, freeing and taking back of a slot", async () => {
    expect(await slots().usage(org)).toMatchObject({ used: 0, held: 0, limit: 25, remaining: 25 });
    expect(await take("MSCU1111111")).toBe("acquired");
    expect(await take("MSCU2222222")).toBe("acquired");
    expect(await take("MSCU1111111")).toBe("already_held");
    expect(await slots().usage(org)).toMatchObject({ used: 2, held: 2, remaining: 23 });
    await free("MSCU1111111");
    // Freed, not forgotten: the distinct count stays, the held count drops.
    expect(await slots().usage(org)).toMatchObject({ used: 2, held: 1, remaining: 24 });
    expect(await take("MSCU1111111")).toBe("acquired");
    expect(await slots().usage(org)).toMatchObject({ used: 2, held: 2, remaining: 23 });
    const { used, held } = await slots().usage(org);
    expect({ used, held }).toEqual(await counted());
  });

  it("counts slots written outside the service and refuses the slot past the plan's limit", async () => {
    const { cycleStart } = await slots().usage(org);
    await prisma().shipmentSlot.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({
        organizationId: org.id,
        cycleStart,
        referenceKey: `BULK${String(i).padStart(7, "0")}`,
      })),
    });
    expect(await slots().usage(org)).toMatchObject({ used: 25, held: 25, remaining: 0 });
    expect(await take("MSCU3333333")).toBe("exhausted");
    await prisma().shipmentSlot.deleteMany({
      where: { organizationId: org.id, referenceKey: { startsWith: "BULK" } },
    });
    const { used, held } = await slots().usage(org);
    expect({ used, held }).toEqual({ used: 2, held: 2 });
    expect({ used, held }).toEqual(await counted());
    expect(await take("MSCU3333333")).toBe("acquired");
  });

  it("is read in one statement", async () => {
    // The count is the process's: background work that runs meanwhile (PostgreSQL's pass runs the
    // workers) only ever adds to it, so the fewest of three reads is the read's own.
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = app.services.db.statements.count;
      await slots().usage(org);
      runs.push(app.services.db.statements.count - before);
    }
    expect(Math.min(...runs)).toBe(1);
  });
});
