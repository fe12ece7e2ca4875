import { afterAll, beforeAll, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { journeyProgress } from "../../src/domain/eta/journey-progress";
import { TRACKING_ENV } from "../mcp/support";
import { startTestApp, type TestApp } from "../support/app";
let app: TestApp;
const NOW = "2026-11-20T12:00:00.000Z";
beforeAll(async () => { app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock: new ManualClock(NOW) }); }, 180_000);
afterAll(() => app?.stop());
it("dump", async () => {
  const org = await app.fixtures.organization({ plan: "professional" });
  for (const ref of ["MSCU1000090"]) {
  await fetch(`${app.url}/api/v1/container/${ref}`, { headers: { authorization: `Bearer ${org.key}` } });
  const sh = await app.services.db.prisma.shipment.findFirst({ where: { organizationId: org.organizationId } , orderBy: {createdAt: "desc"}});
  const [doc] = await app.services.documents.latestOfMany([sh!.documentId!]);
  const p = journeyProgress(doc!.content);
  console.log(JSON.stringify({ arrived: p.arrived, eta: p.carrierEta && new Date(p.carrierEta), calls: p.sailing?.callsAhead, vessel: p.sailing?.vessel, ts: doc!.content.transshipmentLocationKeys }));
  const src = (app.services.eta as any).deps.sources;
  if (p.sailing) console.log(JSON.stringify(await src.vesselFix(p.sailing.vessel)));
  const places = doc!.content.locations.map((l: any) => [l.key, l.lat, l.lng]);
  console.log(JSON.stringify(places));
  console.log(JSON.stringify(await app.services.eta.predict(doc!, Date.parse(NOW), sh!.id)));
  }
}, 180_000);
