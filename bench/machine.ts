import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";

/** Facts that make a figure comparable to another: what ran, on what, and how busy the machine was. */
export interface MachineFacts {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  kernel: string;
  node: string;
  /** `SELECT version()` of the PostgreSQL the service used, when it ran in that mode. */
  postgres: string | undefined;
  /** PGlite's own PostgreSQL build. */
  pglite: string | undefined;
  wrk: string | undefined;
  /** Share of all cores busy with other work during one second before anything started. */
  busyBeforeStartPercent: number;
  /** Share of all cores used by processes not of this run during the measured runs. */
  otherLoadDuringRuns: { median: number; max: number } | undefined;
  /** CPU the targets not under load used during a run, as a share of one core (servers pinned together). */
  idleTargetsDuringRuns: { median: number; max: number } | undefined;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[] | undefined;
}

export interface SourceFacts {
  commit: string;
  /** Files changed and not committed when the run started (parallel work shares this tree). */
  uncommittedFiles: number;
}

function cpuTimes(): { idle: number; total: number } {
  // /proc/stat first line: cpu user nice system idle iowait irq softirq steal ...
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

export async function sampleBusyPercent(ms = 1_000): Promise<number> {
  try {
    const before = cpuTimes();
    await new Promise((r) => setTimeout(r, ms));
    const after = cpuTimes();
    const total = after.total - before.total;
    return total > 0 ? Math.round((1 - (after.idle - before.idle) / total) * 1000) / 10 : 0;
  } catch {
    return Number.NaN;
  }
}

function osName(): string {
  try {
    const line = readFileSync("/etc/os-release", "utf8")
      .split("\n")
      .find((l) => l.startsWith("PRETTY_NAME="));
    return line ? line.slice("PRETTY_NAME=".length).replace(/^"|"$/g, "") : os.type();
  } catch {
    return os.type();
  }
}

function nproc(): number {
  try {
    return Number(execFileSync("nproc", { encoding: "utf8" }).trim());
  } catch {
    return os.availableParallelism();
  }
}

export function machineFacts(input: {
  busyBeforeStartPercent: number;
  wrk: string | undefined;
}): MachineFacts {
  return {
    cores: nproc(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: osName(),
    kernel: os.release(),
    node: process.version,
    postgres: undefined,
    pglite: undefined,
    wrk: input.wrk,
    busyBeforeStartPercent: input.busyBeforeStartPercent,
    otherLoadDuringRuns: undefined,
    idleTargetsDuringRuns: undefined,
    loadAverageAtStart: os.loadavg().map((v) => Math.round(v * 100) / 100),
    loadAverageAtEnd: undefined,
  };
}

export function sourceFacts(cwd: string): SourceFacts {
  const git = (...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
  try {
    const status = git("status", "--porcelain");
    return {
      commit: git("rev-parse", "--short", "HEAD"),
      uncommittedFiles: status ? status.split("\n").length : 0,
    };
  } catch {
    return { commit: "nogit", uncommittedFiles: 0 };
  }
}

/**
 * CPU time (ms) of every process on the machine that is not this run's: not in one of `ownGroups`
 * (the harness's group, each server's, the database process's) and not owned by `excludeUids` (the
 * postgres user, whose backends serve this run; another session's PostgreSQL is left out with them).
 * Two snapshots around a wrk run say how much of the machine other work took meanwhile.
 */
export function otherProcessesCpuMs(
  ownGroups: ReadonlySet<number>,
  excludeUids: ReadonlySet<number>,
): Map<number, number> {
  const ticks = clockTicksPerSecond();
  const cpu = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return cpu;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (excludeUids.has(statSync(`/proc/${entry}`).uid)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (ownGroups.has(Number(fields[2]))) continue;
      cpu.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks);
    } catch {
      // gone meanwhile
    }
  }
  return cpu;
}

/** Share of all cores that processes present in `after` used between the snapshots. */
export function otherCpuShare(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  seconds: number,
  cores: number,
): number {
  let ms = 0;
  for (const [pid, total] of after) ms += total - (before.get(pid) ?? 0);
  return seconds > 0 && cores > 0 ? ms / 1000 / seconds / cores : 0;
}

let ticksPerSecond: number | undefined;
export function clockTicksPerSecond(): number {
  ticksPerSecond ??= (() => {
    try {
      return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      return 100;
    }
  })();
  return ticksPerSecond;
}

/** This process's group id (the harness shares it with npm and tsx). */
export function ownProcessGroup(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return process.pid;
  }
}

export function userId(name: string): number | undefined {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    return line ? Number(line.split(":")[2]) : undefined;
  } catch {
    return undefined;
  }
}
