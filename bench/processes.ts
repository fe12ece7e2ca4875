import { type ChildProcess, spawn } from "node:child_process";

/**
 * Every process the harness starts (servers, wrk) runs in its own process group, so that stopping
 * it also stops whatever it started (tsx's esbuild service), and so that a Ctrl-C in the terminal
 * reaches only the harness, which then stops everything in order. Nothing is killed by name.
 */
export interface ManagedProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Set once the process has exited, with how. */
  exit: string | undefined;
  /** The last few kilobytes of stdout and stderr, for error messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

const OUTPUT_TAIL = 16_384;

export class Supervisor {
  private readonly running = new Set<ManagedProcess>();
  /** Servers that died while the harness still needed them. */
  readonly unexpectedExits: string[] = [];
  private stopping = false;
  /** Processes the harness itself stopped: their exit is no failure. */
  private readonly retired = new Set<ManagedProcess>();

  spawn(
    name: string,
    command: string,
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv; cwd?: string; longLived?: boolean } = {},
  ): ManagedProcess {
    if (this.stopping) throw new Error(`not starting ${name}: the harness is stopping`);
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let resolveExit: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => {
      resolveExit = resolve;
    });
    const managed: ManagedProcess = {
      name,
      pid: child.pid ?? -1,
      child,
      exit: undefined,
      output: () => tail,
      exited,
    };
    const finish = (how: string, code: number | null) => {
      if (managed.exit !== undefined) return;
      managed.exit = how;
      this.running.delete(managed);
      if (options.longLived && !this.stopping && !this.retired.has(managed)) {
        // A server only exits 0 when told to stop: here that came from outside the harness.
        const hint = code === 0 ? " (stopped by a signal from outside the harness)" : "";
        this.unexpectedExits.push(`${name} ${how}${hint}\n${tail.slice(-1_000)}`);
      }
      resolveExit(code);
    };
    child.once("error", (error) => finish(`failed to start: ${error.message}`, null));
    child.once("exit", (code, signal) =>
      finish(signal ? `killed by ${signal}` : `exited with ${code}`, code),
    );
    if (child.pid !== undefined) this.running.add(managed);
    return managed;
  }

  /** SIGTERM to the process group, then SIGKILL after `graceMs`. */
  async stop(target: ManagedProcess, graceMs = 3_000): Promise<void> {
    if (target.exit !== undefined) return;
    this.retired.add(target);
    signalGroup(target.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(target.pid, "SIGKILL"), graceMs);
    await target.exited;
    clearTimeout(timer);
    // Whatever the leader left behind in its group (an esbuild service) goes too.
    signalGroup(target.pid, "SIGKILL");
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running].map((p) => this.stop(p)));
  }

  /** Process groups of everything running now (each child leads its own). */
  groups(): number[] {
    return [...this.running].map((p) => p.pid);
  }

  /** Last resort from a synchronous `exit` handler: no waiting possible. */
  killAllNow(): void {
    this.stopping = true;
    for (const p of this.running) signalGroup(p.pid, "SIGKILL");
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
