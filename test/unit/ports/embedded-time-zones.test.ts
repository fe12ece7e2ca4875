import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { computeEmbeddedTimeZones } from "../../../src/domain/ports/embedded-time-zones-build";
import { embeddedCatalog } from "../../../src/domain/ports/port-directory";

const require = createRequire(import.meta.url);
const seaPorts = require("sea-ports/lib/ports.json") as Record<string, { coordinates?: unknown }>;
const isZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

describe("the embedded port catalogue's time zones", () => {
  it("gives every port with coordinates a real IANA zone of a place on land, never a fixed offset", () => {
    const catalog = embeddedCatalog();
    const wrong: string[] = [];
    for (const [code, entry] of Object.entries(seaPorts)) {
      const port = catalog.get(code);
      if (!port || !entry.coordinates) continue;
      const zone = port.timeZone;
      if (zone === null || !isZone(zone) || zone.startsWith("Etc/")) wrong.push(`${code} ${zone}`);
    }
    expect(wrong).toEqual([]);
  });

  it("puts the ports sea-ports misplaces in their own zone", () => {
    const zoneOf = (code: string) => embeddedCatalog().get(code)?.timeZone;
    expect(zoneOf("USOAK")).toBe("America/Los_Angeles"); // Oakland; sea-ports: America/Chicago
    expect(zoneOf("MOMFM")).toBe("Asia/Macau"); // its geocode falls in Zhuhai
    expect(zoneOf("BRMAO")).toBe("America/Manaus");
    expect(zoneOf("JPONA")).toBe("Asia/Tokyo"); // Onahama
    expect(zoneOf("PTHOR")).toBe("Atlantic/Azores"); // Horta
    expect(zoneOf("NLRTM")).toBe("Europe/Amsterdam");
  });

  // The table is what the script computes from today's catalogue and tzdata (the system's zone tables).
  it.skipIf(!existsSync("/usr/share/zoneinfo/zone1970.tab"))(
    "is exactly what scripts/port-time-zones.ts computes for the whole catalogue",
    async () => {
      const { zones } = await computeEmbeddedTimeZones();
      expect(require("../../../src/domain/ports/embedded-time-zones.json")).toEqual(zones);
    },
    60_000,
  );
});
