/**
 * GraphQL `shipmentSearch` filters by a port on the route and by delay, from the summary kept on the
 * shipment row: exactly the organisation's shipments whose route has the port, whose delay is as asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATOR_ENV } from "../compat/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let org: OrgWithKey;
let tracked: { reference: string; ports: string[]; delayed: boolean }[];

const SEARCH = `query ($filter: ShipmentFilter) {
  shipmentSearch(filter: $filter, pageSize: 100) { total items { reference summary { isDelayed } } }
}`;

async function search(filter: Record<string, unknown>) {
  const { body } = await graphql(app, org.key, SEARCH, { filter });
  return body as {
    data?: { shipmentSearch: { total: number; items: { reference: string }[] } };
    errors?: unknown[];
  };
}

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  org = await app.fixtures.organization({ plan: "professional" });
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 12 });
  for (const reference of known) {
    const res = await fetch(`${app.url}/api/v1/container/${reference}?sealine=MSCU`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(res.status).toBe(200);
  }
  const rows = await app.services.db.prisma.shipment.findMany({
    where: { organizationId: org.organizationId },
  });
  tracked = rows.map((r) => {
    const summary = r.summary as { portLocodes: string[]; isDelayed: boolean };
    return { reference: r.reference, ports: summary.portLocodes, delayed: summary.isDelayed };
  });
}, 120_000);
afterAll(() => app?.stop());

describe("shipmentSearch", () => {
  it("keeps the UN/LOCODEs of the route's ports on every tracked shipment", () => {
    expect(tracked).toHaveLength(12);
    for (const t of tracked) {
      expect(t.ports.length).toBeGreaterThanOrEqual(2);
      for (const code of t.ports) expect(code).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
    }
  });

  it("by port: exactly the shipments whose route has it, in any case", async () => {
    const ports = [...new Set(tracked.flatMap((t) => t.ports))];
    for (const port of ports.slice(0, 4)) {
      const expected = tracked.filter((t) => t.ports.includes(port)).map((t) => t.reference);
      const found = (await search({ port: port.toLowerCase() })).data!.shipmentSearch;
      expect(found.items.map((i) => i.reference).sort()).toEqual(expected.sort());
      expect(found.total).toBe(expected.length);
    }
    expect((await search({ port: "AQZZZ" })).data!.shipmentSearch.total).toBe(0);
  });

  it("by delay: delayed and not delayed split the list", async () => {
    const delayed = (await search({ delayed: true })).data!.shipmentSearch;
    const onTime = (await search({ delayed: false })).data!.shipmentSearch;
    expect(delayed.total).toBe(tracked.filter((t) => t.delayed).length);
    expect(onTime.total).toBe(tracked.filter((t) => !t.delayed).length);
    expect(delayed.total + onTime.total).toBe(12);
  });

  it("in the order asked: by arrival either way (no ETA last), by reference; newest first by default", async () => {
    const SORTED = `query ($sort: ShipmentSort) {
      shipmentSearch(pageSize: 100, sort: $sort) { items { reference eta } }
    }`;
    const read = async (sort?: string) => {
      const { body } = await graphql(app, org.key, SORTED, sort ? { sort } : {});
      return (body as { data: { shipmentSearch: { items: { reference: string; eta: string | null }[] } } })
        .data.shipmentSearch.items;
    };
    const rows = await app.services.db.prisma.shipment.findMany({
      where: { organizationId: org.organizationId },
      orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    });
    const byEta = (dir: 1 | -1) =>
      [...rows]
        .sort((a, b) =>
          a.eta && b.eta
            ? dir * (a.eta.getTime() - b.eta.getTime()) || Number(b.number - a.number)
            : a.eta
              ? -1
              : b.eta
                ? 1
                : Number(b.number - a.number),
        )
        .map((r) => r.reference);
    expect(new Set(rows.map((r) => r.eta?.getTime())).size).toBeGreaterThan(1);
    expect((await read("ARRIVAL")).map((i) => i.reference)).toEqual(byEta(1));
    expect((await read("ARRIVAL_DESC")).map((i) => i.reference)).toEqual(byEta(-1));
    expect((await read("REFERENCE")).map((i) => i.reference)).toEqual(rows.map((r) => r.reference).sort());
    expect((await read()).map((i) => i.reference)).toEqual(rows.map((r) => r.reference));
  });

  it("refuses a port that is not a UN/LOCODE, saying which field", async () => {
    const refused = await search({ port: "Rotterdam" });
    expect(refused.data?.shipmentSearch ?? null).toBeNull();
    expect(JSON.stringify(refused.errors)).toContain("port is a 5-character UN/LOCODE");
  });
});
