/**
 * Archive (issue 38 part C): a shipment put aside leaves the working list and every exception count,
 * stays tracked, comes back on request; any teammate who may write may do it, a view-only key may not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let org: OrgWithKey;
let known: string[];
let unknown: string[];

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 2,
    unknown: 1,
    start: 720_000,
  }));
}, 120_000);
afterAll(() => app?.stop());

const TRACK = `mutation($reference: String!) {
  track(reference: $reference) {
    __typename
    ... on TrackSuccess { shipment { name } }
    ... on ReferenceNotFound { shipment { name } }
  }
}`;
const ARCHIVE = `mutation($id: String!, $archived: Boolean!) {
  archiveShipment(id: $id, archived: $archived) {
    __typename
    ... on ShipmentArchiveChanged { shipmentId archived }
    ... on ShipmentNotFound { id }
  }
}`;
const SEARCH = `query($filter: ShipmentFilter) {
  shipmentSearch(filter: $filter, pageSize: 50) { total items { name reference archived archivedAt status } }
}`;

async function run(key: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(app, key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as any;
}
const references = async (filter: Record<string, unknown> = {}) =>
  ((await run(org.key, SEARCH, { filter })).shipmentSearch.items as { reference: string }[])
    .map((i) => i.reference)
    .sort();

describe("archiveShipment", () => {
  it("takes a shipment out of the default list and the counts, lists it under archived, and brings it back", async () => {
    for (const reference of [...known, unknown[0]!]) await run(org.key, TRACK, { reference });
    const failedName = (await run(org.key, TRACK, { reference: unknown[0] })).track.shipment.name;
    expect(await references()).toEqual([...known, unknown[0]!].sort());
    expect((await run(org.key, SEARCH, { filter: { failed: true } })).shipmentSearch.total).toBe(1);

    // A teammate archives it (not only the one who added it): it changes the list, not the tracking.
    const mate = await app.fixtures.teammate(org.organizationId);
    const archived = (await run(mate.key, ARCHIVE, { id: unknown[0], archived: true })).archiveShipment;
    expect(archived).toEqual({
      __typename: "ShipmentArchiveChanged",
      shipmentId: failedName,
      archived: true,
    });
    expect(await references()).toEqual([...known].sort());
    // The failed exception no longer counts it.
    expect((await run(org.key, SEARCH, { filter: { failed: true } })).shipmentSearch.total).toBe(0);
    const shelf = (await run(org.key, SEARCH, { filter: { archived: true } })).shipmentSearch;
    expect(shelf.total).toBe(1);
    expect(shelf.items[0]).toMatchObject({ reference: unknown[0], archived: true });
    expect(shelf.items[0].archivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Still tracked: readable by its id.
    const read = await run(org.key, `query($id: String!) { shipment(id: $id) { name archived } }`, {
      id: failedName,
    });
    expect(read.shipment).toEqual({ name: failedName, archived: true });

    const back = (await run(org.key, ARCHIVE, { id: failedName, archived: false })).archiveShipment;
    expect(back).toEqual({ __typename: "ShipmentArchiveChanged", shipmentId: failedName, archived: false });
    expect(await references()).toEqual([...known, unknown[0]!].sort());
    expect((await run(org.key, SEARCH, { filter: { archived: true } })).shipmentSearch.total).toBe(0);
  });

  it("answers ShipmentNotFound for another organisation's shipment, and refuses a view-only key", async () => {
    const stranger = await app.fixtures.organization();
    const other = (await run(stranger.key, ARCHIVE, { id: known[0], archived: true })).archiveShipment;
    expect(other).toEqual({ __typename: "ShipmentNotFound", id: known[0] });
    const viewer = await app.fixtures.teammate(org.organizationId, { viewOnly: true });
    const { body } = await graphql(app, viewer.key, ARCHIVE, { id: known[0], archived: true });
    expect(body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
    expect(await references()).toContain(known[0]);
  });
});
