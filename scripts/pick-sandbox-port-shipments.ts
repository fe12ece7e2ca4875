/**
 * Chooses the shipments the sandbox world tracks for its board ports (SANDBOX_PORT_SHIPMENTS in
 * src/app/sandbox-congestion.ts) with day one's picker on the sandbox's ports and frozen moment:
 * `npx tsx scripts/pick-sandbox-port-shipments.ts`, then paste its output there.
 */
import { pickDemoShipments } from "../src/app/day-one";
import { SANDBOX_CONGESTION_PORTS } from "../src/app/sandbox-congestion";
import { SANDBOX_NOW } from "../src/app/sandbox-world";
import { loadConfig } from "../src/config";

const picks = await pickDemoShipments(loadConfig({}).scheduleCarriers, Date.parse(SANDBOX_NOW), {
  ports: SANDBOX_CONGESTION_PORTS,
  perPort: 7,
  recentPerPort: 4,
  recentSpread: true,
  atSea: 0,
});
for (const pick of picks) {
  const days = ((Date.parse(SANDBOX_NOW) - pick.arrival) / 86_400_000).toFixed(1);
  console.log(
    `  { scac: "${pick.scac}", reference: "${pick.reference}" }, // ${pick.portOfDischarge}, arrived ${days} days before`,
  );
}
