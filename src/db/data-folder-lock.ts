import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * A PGlite data folder is a PostgreSQL data directory with no postmaster guarding it: a second process
 * that opens it runs its own recovery and writes over the first one's files. This lock file in the
 * folder says who holds it; every opener (the server, a CLI command, a script) takes it first.
 */
export const LOCK_FILE = "quayside.lock";

/** Where a running server answers operator commands (`src/operator`): a socket in the folder, or loopback. */
export type OperatorAddress = { socketPath: string } | { host: "127.0.0.1"; port: number };

const holderSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  /** What holds the folder, as a person would type it: `quayside serve`, `quayside keys list`. */
  command: z.string(),
  startedAt: z.string(),
  /** Set once the holder is a server whose operator endpoint is listening. */
  operator: z
    .union([
      z.object({ socketPath: z.string() }),
      z.object({ host: z.literal("127.0.0.1"), port: z.number().int().min(1).max(65535) }),
    ])
    .nullable(),
  /** The operator endpoint's bearer token: the file is 0600, so reading it proves the same OS user. */
  token: z.string().min(32),
});

export type LockHolder = z.infer<typeof holderSchema>;

export class DataFolderHeldError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(heldMessage(dataDir, holder));
  }
}

export interface DataFolderLock {
  readonly dataDir: string;
  readonly token: string;
  /** Publishes where the operator endpoint listens, so CLI commands can go through it. */
  advertise(operator: OperatorAddress): void;
  release(): void;
}

export type LockState =
  | { state: "free" }
  | { state: "held"; holder: LockHolder }
  /** The holder is gone (its process ended, or its operator endpoint no longer answers). */
  | { state: "stale"; holder: LockHolder | null };

/** Locks this process holds, so a restart of PID 1 in a container does not mistake its old lock for its own. */
const heldHere = new Map<string, string>();
let exitHookInstalled = false;

export async function acquireDataFolderLock(dataDir: string, command: string): Promise<DataFolderLock> {
  const file = path.join(dataDir, LOCK_FILE);
  const token = randomBytes(32).toString("base64url");
  const holder: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    command,
    startedAt: new Date().toISOString(),
    operator: null,
    token,
  };
  // A stale lock is cleared and creation tried again; a third collision means others keep taking it.
  for (let round = 0; round < 3; round++) {
    try {
      writeExclusive(file, holder);
      break;
    } catch (error) {
      if (!isCode(error, "EEXIST") || round === 2) throw error;
    }
    const seen = await inspectDataFolderLock(dataDir);
    if (seen.state === "held") throw new DataFolderHeldError(dataDir, seen.holder);
    if (seen.state === "stale") clearStaleLock(dataDir, seen.holder);
  }
  heldHere.set(file, token);
  installExitHook();
  let current = holder;
  return {
    dataDir,
    token,
    advertise(operator) {
      current = { ...current, operator };
      // Written beside and renamed over, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      writeExclusive(temporary, current);
      renameSync(temporary, file);
    },
    release() {
      releaseFile(file, token);
    },
  };
}

/** Reads the lock without taking it; the CLI asks this to find a running server. */
export async function inspectDataFolderLock(dataDir: string): Promise<LockState> {
  const file = path.join(dataDir, LOCK_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isCode(error, "ENOENT")) return { state: "free" };
    throw error;
  }
  const parsed = holderSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    // A holder writes its lock in one call right after creating it; an unreadable lock is left by a
    // crash in between (or by hand), unless it was created this very moment.
    return Date.now() - modifiedAt(file) > 2_000 ? { state: "stale", holder: null } : held(text);
  }
  const holder = parsed.data;
  if (heldHere.get(file) === holder.token) return { state: "held", holder };
  // Another machine on a shared file system: its processes cannot be checked from here.
  if (holder.hostname !== os.hostname()) return { state: "held", holder };
  // Our own PID on a lock we do not hold: a previous life of this process (PID 1 in a container).
  if (holder.pid === process.pid || !processExists(holder.pid)) return { state: "stale", holder };
  // The PID may have been reused by an unrelated process; a server that advertised an endpoint
  // proves it is alive by answering on it.
  if (holder.operator && !(await answers(holder.operator))) return { state: "stale", holder };
  return { state: "held", holder };
}

function held(text: string): LockState {
  // Being written right now: report the holder as unknown but present.
  return {
    state: "held",
    holder: {
      pid: 0,
      hostname: os.hostname(),
      command: text ? "an unknown process" : "a process that is starting",
      startedAt: new Date().toISOString(),
      operator: null,
      token: "-".repeat(32),
    },
  };
}

/**
 * Moves the stale lock aside rather than deleting it: of two processes clearing the same stale lock at
 * once, only one rename finds it; if what was moved turns out to be a fresh lock someone just wrote,
 * it is put back.
 */
function clearStaleLock(dataDir: string, holder: LockHolder | null): void {
  const file = path.join(dataDir, LOCK_FILE);
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (isCode(error, "ENOENT")) return;
    throw error;
  }
  const moved = holderSchema.safeParse(safeJson(readFileSync(aside, "utf8")));
  const sameLock = holder === null ? !moved.success : moved.success && moved.data.token === holder.token;
  if (sameLock) {
    unlinkSync(aside);
    return;
  }
  try {
    renameSync(aside, file);
  } catch {
    // Nothing more to do: the next opener will see whatever is there.
  }
}

function writeExclusive(file: string, holder: LockHolder): void {
  // 0600: the token in it lets whoever reads it run operator commands on the server.
  const fd = openSync(file, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(holder, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function releaseFile(file: string, token: string): void {
  if (heldHere.get(file) !== token) return;
  heldHere.delete(file);
  try {
    const current = holderSchema.safeParse(safeJson(readFileSync(file, "utf8")));
    // Someone cleared our lock as stale and took the folder: theirs now, leave it.
    if (current.success && current.data.token === token) unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** A CLI command that fails half-way, or a server that exits on an error, must not leave its lock. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const [file, token] of [...heldHere]) releaseFile(file, token);
  });
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists and belongs to another user.
    return isCode(error, "EPERM");
  }
}

function answers(operator: OperatorAddress): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = "socketPath" in operator ? net.connect(operator.socketPath) : net.connect(operator);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.once("connect", () => done(true));
    socket.once("error", (error) =>
      done(!(isCode(error, "ECONNREFUSED") || isCode(error, "ENOENT") || isCode(error, "ENOTSOCK"))),
    );
    // A holder too busy to accept within a second is alive; never take its folder on a guess.
    socket.setTimeout(1_000, () => done(true));
  });
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

function heldMessage(dataDir: string, holder: LockHolder): string {
  const who =
    holder.pid > 0 ? `${holder.command} (process ${holder.pid} on ${holder.hostname})` : holder.command;
  const lines = [`The data folder ${dataDir} is in use by ${who} since ${holder.startedAt}.`];
  lines.push(
    holder.command === "quayside serve"
      ? "A PGlite data folder is opened by one process only. Stop that server first, or give this one another QUAYSIDE_DATA_DIR (or a DATABASE_URL on PostgreSQL). Account commands (quayside keys|orgs|users ...) run through the running server on their own."
      : "A PGlite data folder is opened by one process only. Wait for it to finish and try again.",
  );
  lines.push(
    `If no such process runs any more (another machine sharing the folder, for instance), delete ${path.join(dataDir, LOCK_FILE)} and try again.`,
  );
  return lines.join("\n");
}
