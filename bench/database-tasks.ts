import type { DatabaseTarget } from "../src/config";
import { type StartedServer, startPostgres } from "../test/support/servers";
import type { DatabaseMode } from "./options";
import { SCENARIOS } from "./scenarios";
import { removeBenchAccount, type SeedOutcome, type ShipmentSeedInput, seedDatabase } from "./seed";

/**
 * The database work of the harness, in a child process of its own (databases.ts starts it):
 * - PGlite seeding and `initdb` block the thread they run on for seconds, and the harness must stay
 *   free to answer a Ctrl-C at once (tsx kills a child that does not acknowledge a signal within
 *   ~60 ms, which would leave PostgreSQL and temp folders behind);
 * - in its own process group, a Ctrl-C in the terminal does not kill `initdb` or `pg_ctl` halfway;
 * - when the harness goes away, however it goes, the IPC channel closes and this process stops the
 *   PostgreSQL it started before it exits.
 */
export type DatabaseTask =
  | { op: "start-postgres" }
  | { op: "stop-postgres" }
  | {
      op: "seed";
      target: DatabaseTarget;
      mode: DatabaseMode;
      rawKeys: string[];
      runTag: string;
      scenarioIds: string[];
      shipments?: ShipmentSeedInput;
    }
  | { op: "remove-account"; target: DatabaseTarget; runTag: string };

export type DatabaseTaskResult = { url: string } | SeedOutcome | null;

/** Held from the moment it is asked for, so that a stop that arrives during initdb waits for it. */
let postgres: Promise<StartedServer> | undefined;

async function stopPostgres(): Promise<void> {
  const running = postgres;
  postgres = undefined;
  const server = await running?.catch(() => undefined);
  await server?.stop();
}

async function handle(task: DatabaseTask): Promise<DatabaseTaskResult> {
  switch (task.op) {
    case "start-postgres":
      postgres = startPostgres();
      return { url: (await postgres).url };
    case "stop-postgres":
      await stopPostgres();
      return null;
    case "seed":
      return seedDatabase({
        target: task.target,
        mode: task.mode,
        rawKeys: task.rawKeys,
        runTag: task.runTag,
        scenarios: SCENARIOS.filter((s) => task.scenarioIds.includes(s.id)),
        shipments: task.shipments,
      });
    case "remove-account":
      await removeBenchAccount(task.target, task.runTag);
      return null;
  }
}

if (!process.send) throw new Error("database-tasks.ts runs as the harness's child (see databases.ts)");
const reply = (message: unknown) => process.send?.(message);

process.on("message", (message: { id: number; task: DatabaseTask }) => {
  handle(message.task).then(
    (result) => reply({ id: message.id, ok: true, result }),
    (error: unknown) => reply({ id: message.id, ok: false, error: (error as Error).stack ?? String(error) }),
  );
});

process.on("disconnect", () => {
  void stopPostgres().finally(() => process.exit(0));
});
// The harness's Ctrl-C is the harness's business: it says when to stop, through the channel.
process.on("SIGINT", () => undefined);
