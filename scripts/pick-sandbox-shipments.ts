/**
 * Finds the sandbox's seven known shipments again (three in transit on time, two delayed, two
 * delivered) after a change to the simulated world: `npx tsx scripts/pick-sandbox-shipments.ts`,
 * then paste the list into SANDBOX_REFERENCES in src/app/sandbox-world.ts.
 */
import {
  FIRST_FETCH_BEFORE_MS,
  pickShipments,
  SANDBOX_NOW,
  sandboxSimulatedWorld,
} from "../src/app/sandbox-world";

const now = new Date(SANDBOX_NOW);
const picked = pickShipments(sandboxSimulatedWorld(), now, new Date(now.getTime() - FIRST_FETCH_BEFORE_MS));
console.log(JSON.stringify(picked, null, 2));
