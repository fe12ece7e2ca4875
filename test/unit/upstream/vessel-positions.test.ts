/**
 * Vessel position lookups without a network or a database: the query check of the core, name
 * normalisation, and the simulator adapter's requests and answers (IMO alone, a name, a name several
 * ships bear).
 */
import { describe, expect, it } from "vitest";
import { normalizeVesselName } from "../../../src/domain/vessels/vessel-position-provider";
import { askedVessel } from "../../../src/domain/vessels/vessel-positions.service";
import {
  mapSimulatorChoices,
  SimulatorPositionsAdapter,
} from "../../../src/upstream/vessels/simulator-positions.adapter";

describe("normalizeVesselName", () => {
  it("ignores case, accents, punctuation and spacing, and nothing else", () => {
    expect(normalizeVesselName("Maersk Mc-Kinney Møller")).toBe("MAERSK MC KINNEY MOLLER");
    expect(normalizeVesselName("  cma cgm  Antoine de Saint-Exupéry ")).toBe(
      "CMA CGM ANTOINE DE SAINT EXUPERY",
    );
    expect(normalizeVesselName("AKRA 102")).toBe("AKRA 102");
    expect(normalizeVesselName("--")).toBe("");
    expect(normalizeVesselName("EVER GIVEN")).not.toBe(normalizeVesselName("EVER GIVE"));
  });
});

describe("askedVessel", () => {
  it("takes an IMO number with or without the MMSI, or a name alone", () => {
    expect(askedVessel({ imo: " 9811000 ", mmsi: "353136000" })).toEqual({
      imo: "9811000",
      mmsi: "353136000",
      name: null,
    });
    expect(askedVessel({ imo: "9811000", mmsi: "" })).toEqual({ imo: "9811000", mmsi: null, name: null });
    expect(askedVessel({ name: " Ever-Given " })).toEqual({
      imo: null,
      mmsi: null,
      name: "Ever-Given",
      normalizedName: "EVER GIVEN",
    });
  });

  it("names the parameter at fault", () => {
    const param = (input: Parameters<typeof askedVessel>[0]) => {
      const asked = askedVessel(input);
      return "kind" in asked ? asked.param : null;
    };
    expect(param({})).toBe("imo");
    expect(param({ mmsi: "353136000" })).toBe("imo");
    expect(param({ imo: "98110001" })).toBe("imo");
    expect(param({ imo: "9811000", mmsi: "35313600" })).toBe("mmsi");
    expect(param({ name: "EVER GIVEN", imo: "9811000" })).toBe("name");
    expect(param({ name: "É" })).toBe("name");
    expect(param({ name: "N".repeat(101) })).toBe("name");
    expect(param({ name: "A1" })).toBeNull();
  });
});

describe("SimulatorPositionsAdapter", () => {
  const POSITION = {
    vesselIMONumber: "9811000",
    MMSINumber: "353136000",
    vesselName: "EVER GIVEN",
    latitude: 29.9,
    longitude: 32.55,
    positionDateTime: "2026-11-20T12:00:00Z",
  };
  const adapter = (status: number, body: unknown, urls: string[]) =>
    new SimulatorPositionsAdapter("http://simulator.test/", {
      attempts: 1,
      fetch: (async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify(body), {
          status,
          headers: { "content-type": "application/json" },
        });
      }) as typeof fetch,
    });

  it("asks by IMO number alone, without an empty mmsi, or by name", async () => {
    const urls: string[] = [];
    const byImo = await adapter(200, POSITION, urls).locate({ imo: "9811000" });
    expect(byImo).toMatchObject({ kind: "found", position: { imo: "9811000", mmsi: "353136000" } });
    await adapter(200, POSITION, urls).locate({ imo: "9811000", mmsi: "353136000" });
    await adapter(200, POSITION, urls).locate({ name: "EVER GIVEN" });
    expect(urls).toEqual([
      "http://simulator.test/vessels/position?imo=9811000",
      "http://simulator.test/vessels/position?imo=9811000&mmsi=353136000",
      "http://simulator.test/vessels/position?name=EVER+GIVEN",
    ]);
  });

  it("reads a 300 as a name several ships bear, listing them", async () => {
    const outcome = await adapter(
      300,
      {
        error: "Several ships bear this name; ask by IMO number.",
        vessels: [
          { vesselIMONumber: "9300116", MMSINumber: "219000111", vesselName: "NORDIC STAR" },
          { vesselIMONumber: "9300128", MMSINumber: null, vesselName: "NORDIC STAR" },
        ],
      },
      [],
    ).locate({ name: "nordic star" });
    expect(outcome).toEqual({
      kind: "ambiguous",
      candidates: [
        { imo: "9300116", mmsi: "219000111", name: "NORDIC STAR" },
        { imo: "9300128", mmsi: null, name: "NORDIC STAR" },
      ],
    });
    expect(mapSimulatorChoices({ vessels: "nope" })).toEqual(expect.any(String));
    expect(await adapter(300, { nothing: true }, []).locate({ name: "x y" })).toMatchObject({
      kind: "unavailable",
    });
    expect(await adapter(404, { error: "no" }, []).locate({ name: "x y" })).toEqual({ kind: "not-found" });
  });
});
