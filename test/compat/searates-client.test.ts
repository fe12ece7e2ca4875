import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { arrivalEstimate, lastActualEvent, locationName, SeaRatesTrackingClient } from "./searates-v3-client";
import { SIMULATOR_ENV } from "./support";

/** A client written from the public SeaRates v3 documentation works against /compat with only its base URL changed. */
let app: TestApp;
let org: OrgWithKey;
let client: SeaRatesTrackingClient;
let known: string[];

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  org = await app.fixtures.organization();
  client = new SeaRatesTrackingClient(`${app.url}/compat`, org.key);
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 2, start: 500_000 }));
});
afterAll(() => app?.stop());

describe("an independent SeaRates v3 client", () => {
  it("lists the sealines and finds MSC by its SCAC", async () => {
    const answer = await client.sealines();
    expect(answer.status).toBe("success");
    expect(answer.data.find((l) => l.scac_codes.includes("MSCU"))?.name).toMatch(/MSC/);
  });

  it("tracks a container and reads what an integration reads: status, ports, ETA, last event, route", async () => {
    const answer = await client.track({ number: known[0]!, sealine: "MSCU", route: true });
    expect(answer).toMatchObject({ status: "success", message: "OK" });
    const { data } = answer;
    expect(data.metadata.number).toBe(known[0]);
    expect(["PLANNED", "IN_TRANSIT", "DELIVERED"]).toContain(data.metadata.status);
    expect(locationName(data, data.route.pol.location)).toEqual(expect.any(String));
    expect(locationName(data, data.route.pod.location)).toEqual(expect.any(String));
    expect(arrivalEstimate(data)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const last = lastActualEvent(data, known[0]!);
    expect(last?.place).toEqual(expect.any(String));
    expect(last?.date).toMatch(/^\d{4}-/);
    expect(data.route_data?.route?.some((leg) => leg.type === "SEA" && leg.path.length > 2)).toBe(true);
    expect(data.route_data?.pin).toHaveLength(2);
  });

  it("reads the route, the history and a historical answer by id", async () => {
    await client.track({ number: known[1]! });
    const route = await client.route({ number: known[1]!, type: "CT", sealine: "MSCU" });
    expect(route.status).toBe("success");
    expect(route.data.route?.length).toBeGreaterThan(0);
    const history = await client.history({ number: known[1]!, type: "CT" });
    expect(history.status).toBe("success");
    const entry = history.data.requests![0]!;
    expect(entry.sealine).toBe("mscu");
    const byId = await client.historyById({ id: entry.id, number: known[1]!, type: "CT" });
    expect(byId.status).toBe("success");
    expect(byId.data.containers[0]!.number).toBe(known[1]);
  });

  it("branches on `message` for refusals, which are HTTP 200 too", async () => {
    const wrong = await client.track({ number: "MSCU1234565" });
    expect(wrong).toMatchObject({ status: "error", message: "WRONG_NUMBER" });
    const badKey = await new SeaRatesTrackingClient(`${app.url}/compat`, "not-a-key").track({
      number: known[0]!,
    });
    expect(badKey).toMatchObject({ status: "error", message: "API_KEY_WRONG" });
  });
});
