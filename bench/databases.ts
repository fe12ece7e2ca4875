import { type ChildProcess, spawn } from "node:child_process";
import type { DatabaseTarget } from "../src/config";
import type { DatabaseTask, DatabaseTaskResult } from "./database-tasks";
import type { DatabaseMode } from "./options";
import type { SeedOutcome, ShipmentSeedInput } from "./seed";

/** The harness's side of the database process (see database-tasks.ts for why it is a process). */
export class DatabaseWorker {
  private readonly child: ChildProcess;
  private output = "";
  private readonly pending = new Map<
    number,
    { resolve: (r: DatabaseTaskResult) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(repoRoot: string) {
    this.child = spawn(process.execPath, ["--import", "tsx", "bench/database-tasks.ts"], {
      cwd: repoRoot,
      detached: true,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString("utf8")).slice(-8_000);
    };
    this.child.stdout?.on("data", keep);
    this.child.stderr?.on("data", keep);
    const failAll = (error: Error) => {
      this.failure = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.child.on(
      "message",
      (m: { id: number; ok: boolean; result?: DatabaseTaskResult; error?: string }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result ?? null);
        else p.reject(new Error(m.error));
      },
    );
    this.child.on("error", failAll);
    this.child.on("exit", (code, signal) =>
      failAll(new Error(`the database process exited (${signal ?? code}):\n${this.output}`)),
    );
  }

  private run(task: DatabaseTask): Promise<DatabaseTaskResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, task });
    });
  }

  async startPostgres(): Promise<string> {
    return ((await this.run({ op: "start-postgres" })) as { url: string }).url;
  }

  async stopPostgres(): Promise<void> {
    await this.run({ op: "stop-postgres" });
  }

  async seed(input: {
    target: DatabaseTarget;
    mode: DatabaseMode;
    rawKeys: string[];
    runTag: string;
    scenarioIds: string[];
    shipments?: ShipmentSeedInput;
  }): Promise<SeedOutcome> {
    return (await this.run({ op: "seed", ...input })) as SeedOutcome;
  }

  async removeAccount(target: DatabaseTarget, runTag: string): Promise<void> {
    await this.run({ op: "remove-account", target, runTag });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Closes the channel; the process stops what it started and exits. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.disconnect();
    await exited;
  }
}
