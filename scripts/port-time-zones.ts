/**
 * Writes src/domain/ports/embedded-time-zones.json: the IANA zone of every port of the embedded
 * catalogue (the `sea-ports` package), from the port's coordinates with the resolver the UN/LOCODE
 * importer uses, checked against the port's country with tzdata's zone tables (`zoneForPort`).
 * sea-ports' own `timezone` field is wrong for some ports (Oakland says America/Chicago, Horta
 * Asia/Calcutta, one says `America/Argentina`, no zone at all), and geo-tz is far too big for the API
 * process, so the zones are computed here once and shipped as a table.
 *
 *   npx tsx scripts/port-time-zones.ts
 *
 * Run it again when sea-ports is upgraded; test/unit/ports/embedded-time-zones.test.ts fails until
 * the table matches the catalogue.
 */
import { writeFileSync } from "node:fs";
import { computeEmbeddedTimeZones } from "../src/domain/ports/embedded-time-zones-build";

const OUTPUT = new URL("../src/domain/ports/embedded-time-zones.json", import.meta.url);

const { zones, ports } = await computeEmbeddedTimeZones();
writeFileSync(OUTPUT, `${JSON.stringify(zones, null, 1)}\n`);
console.log(`${Object.keys(zones).length} of ${ports} ports have a zone`);
