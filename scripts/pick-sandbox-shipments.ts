/**
 * Finds candidates for the sandbox's seven known shipments (three in transit on time, two delayed, two
 * delivered) after a change to the simulated world: `npx tsx scripts/pick-sandbox-shipments.ts`. The
 * first of each kind may not show the demo's other states (a box overdue in the yard, one under a
 * freight hold, one not yet manifested, one gated out after its holds were lifted): choose among the
 * candidates for SANDBOX_REFERENCES in src/app/sandbox-world.ts until the sandbox tests pass.
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
