/**
 * The carrier simulator on its own, without the service: `npm run simulator -- --port 4010`. The
 * service's `quayside simulator` runs the same CLI.
 */
import { runSimulatorCli } from "./cli";

await runSimulatorCli(process.argv.slice(2));
