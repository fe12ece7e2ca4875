/**
 * `quayside simulator --port N [--host H] [--clock ISO]`: runs the carrier simulator until interrupted.
 * With --clock the simulator starts on a manual clock frozen at that time, which the admin API can move.
 */
import { parseArgs } from "node:util";
import { type Clock, ManualClock, systemClock } from "../src/lib/clock";
import { parseHabitsOption } from "./habits";
import { startSimulator } from "./server";

export interface SimulatorCliOptions {
  /** Stops the simulator when aborted; by default SIGINT and SIGTERM do. */
  signal?: AbortSignal;
  write?: (line: string) => void;
}

export const SIMULATOR_USAGE = `Usage: quayside simulator [--port N] [--host HOST] [--clock ISO-DATE-TIME]
                          [--habits SCAC=habit,habit[;SCAC=...] | --habits real]

Serves DCSA Track & Trace 2.2 for every carrier of the directory at
  http://HOST:PORT/<SCAC>/v2/events?equipmentReference=...|transportDocumentReference=...|carrierBookingReference=...
Admin: GET /_admin/state, PUT|DELETE /_admin/faults/<SCAC>, PUT|DELETE /_admin/habits/<SCAC>,
PUT /_admin/clock (with --clock only).
Habits (real carriers' quirks, per carrier): wrapped-body, plan-codes, lower-case-codes, no-offset,
no-transport-call, unknown-mode, bom, relative-paging, link-paging, long-retry-after, per-minute-limit=N;
"real" gives each real carrier the habits it is reported to have (simulator/habits.ts).
`;

export async function runSimulatorCli(
  argv: readonly string[],
  options: SimulatorCliOptions = {},
): Promise<void> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      clock: { type: "string" },
      habits: { type: "string", multiple: true },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: false,
  });
  if (values.help) {
    write(SIMULATOR_USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be 0-65535, not ${values.port}`);
  let clock: Clock = systemClock;
  if (typeof values.clock === "string") {
    if (Number.isNaN(Date.parse(values.clock)))
      throw new Error(`--clock must be an ISO date-time, not ${values.clock}`);
    clock = new ManualClock(values.clock);
  }
  const habits = parseHabitsOption(
    (Array.isArray(values.habits) ? values.habits : []).filter((v): v is string => typeof v === "string"),
  );
  if (typeof habits === "string") throw new Error(habits);
  const simulator = await startSimulator({ port, host: String(values.host), clock, habits });
  write(`Carrier simulator (DCSA T&T 2.2) listening on ${simulator.url}`);
  for (const [scac, value] of Object.entries(simulator.habits.list())) {
    const limit = value.perMinuteLimit ? [`per-minute-limit=${value.perMinuteLimit}`] : [];
    write(`  ${scac} habits: ${[...value.habits, ...limit].join(", ")}`);
  }
  write(`  e.g. ${simulator.url}/MSCU/v2/events?equipmentReference=MSCU1000001`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    if (options.signal) {
      if (options.signal.aborted) resolve();
      options.signal.addEventListener("abort", stop, { once: true });
      return;
    }
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await simulator.close();
}
