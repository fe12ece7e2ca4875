import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataFolderLock, DataFolderHeldError, LOCK_FILE } from "../../src/db/data-folder-lock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "qs-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => path.join(dir, LOCK_FILE);
const holder = (fields: Record<string, unknown>) =>
  writeFileSync(
    lockFile(),
    JSON.stringify({
      pid: process.pid,
      hostname: os.hostname(),
      command: "quayside serve",
      startedAt: "2026-01-01T00:00:00.000Z",
      operator: null,
      token: "t".repeat(43),
      ...fields,
    }),
  );

describe("the data-folder lock", () => {
  it("is private to its owner, refuses a second opener, and is gone once released", async () => {
    const lock = await acquireDataFolderLock(dir, "quayside serve");
    expect(statSync(lockFile()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.pid, operator: null });
    await expect(acquireDataFolderLock(dir, "quayside keys list")).rejects.toThrow(DataFolderHeldError);
    lock.advertise({ socketPath: path.join(dir, "operator.sock") });
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).operator).toEqual({
      socketPath: path.join(dir, "operator.sock"),
    });
    lock.release();
    expect(() => statSync(lockFile())).toThrow();
    (await acquireDataFolderLock(dir, "quayside keys list")).release();
  });

  it("is taken over from a process that is gone, and from an earlier life of this PID (PID 1 in a container)", async () => {
    holder({ pid: 2 ** 22 + 12_345 }); // above Linux's pid_max
    const first = await acquireDataFolderLock(dir, "quayside serve");
    first.release();
    holder({ pid: process.pid });
    const second = await acquireDataFolderLock(dir, "quayside serve");
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).token).toBe(second.token);
    second.release();
  });

  it("is taken over when its live PID's operator endpoint does not answer (a reused PID)", async () => {
    holder({ pid: process.ppid, operator: { socketPath: path.join(dir, "operator.sock") } });
    (await acquireDataFolderLock(dir, "quayside serve")).release();
  });

  it("is never taken from a live process, nor from another machine", async () => {
    holder({ pid: process.ppid });
    const live = await acquireDataFolderLock(dir, "quayside serve").catch((e: unknown) => e);
    expect(live).toBeInstanceOf(DataFolderHeldError);
    expect((live as Error).message).toContain(`in use by quayside serve (process ${process.ppid} on`);

    holder({ pid: 2 ** 22 + 12_345, hostname: "elsewhere.example" });
    const remote = await acquireDataFolderLock(dir, "quayside serve").catch((e: unknown) => e);
    expect(remote).toBeInstanceOf(DataFolderHeldError);
    expect((remote as Error).message).toContain(`delete ${lockFile()}`);
  });

  it("treats an unreadable lock as stale only once it is old enough not to be one being written", async () => {
    writeFileSync(lockFile(), "{");
    await expect(acquireDataFolderLock(dir, "quayside serve")).rejects.toThrow(DataFolderHeldError);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lockFile(), past, past);
    (await acquireDataFolderLock(dir, "quayside serve")).release();
  });

  it("leaves alone a lock that another opener took over from it", async () => {
    const lock = await acquireDataFolderLock(dir, "quayside serve");
    holder({ pid: process.ppid, token: "o".repeat(43) });
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).token).toBe("o".repeat(43));
  });
});
