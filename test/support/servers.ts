import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Real PostgreSQL and Redis servers for tests, started from Debian's binaries on loopback. */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions)
    if (existsSync(path.join(root, v, "bin", "initdb"))) return path.join(root, v, "bin");
  return undefined;
}

export interface StartedServer {
  url: string;
  stop(): Promise<void>;
}

/** A PostgreSQL server a test may take down and bring back while clients are connected. */
export interface StartedPostgres extends StartedServer {
  /** `pg_ctl restart -m fast`: the server terminates every session (57P01) and comes back. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are terminated and new connections refused until `resume`. */
  halt(): Promise<void>;
  resume(): Promise<void>;
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start within ${timeoutMs} ms`);
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** initdb + pg_ctl in a temporary folder; as root, the server runs as the `postgres` user. */
export async function startPostgres(): Promise<StartedPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL server binaries not found (apt-get install -y postgresql)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "quayside-pg-"));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string) =>
    asRoot
      ? execFileSync("su", ["postgres", "-c", cmd], { stdio: "pipe" })
      : execFileSync("sh", ["-c", cmd], { stdio: "pipe" });
  // Asynchronous, so the clients a test runs in this process keep going while the server is down.
  const runAsync = async (cmd: string) => {
    await (asRoot ? execFileAsync("su", ["postgres", "-c", cmd]) : execFileAsync("sh", ["-c", cmd]));
  };
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  run(`${bin}/initdb -D ${dir}/data -A trust -U postgres >/dev/null`);
  const start = `${bin}/pg_ctl -D ${dir}/data -o "-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" -l ${dir}/log -w start >/dev/null`;
  run(start);
  await waitFor(() => portOpen(port), "PostgreSQL");
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await runAsync(`${bin}/pg_ctl -D ${dir}/data -m fast -w restart -l ${dir}/log >/dev/null`);
    },
    async halt() {
      await runAsync(`${bin}/pg_ctl -D ${dir}/data -m fast -w stop >/dev/null`);
    },
    async resume() {
      await runAsync(start);
      await waitFor(() => portOpen(port), "PostgreSQL");
    },
    async stop() {
      try {
        run(`${bin}/pg_ctl -D ${dir}/data -m immediate stop >/dev/null`);
      } catch {
        // Already halted by the test: nothing to stop.
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export function redisServerPath(): string | undefined {
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (existsSync(p)) return p;
  return undefined;
}

export async function startRedis(): Promise<StartedServer> {
  const binary = redisServerPath();
  if (!binary) throw new Error("redis-server not found (apt-get install -y redis-server)");
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  await waitFor(() => portOpen(port), "Redis");
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
    },
  };
}

/**
 * Waits until a server's sandbox world is built: sandbox routes answer 503 `sandbox_starting` with
 * Retry-After while it builds at start, as a client following Retry-After would wait.
 */
export async function sandboxReady(baseUrl: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A kept-alive connection the server closed while the world's start held its thread is simply
    // tried again, as a client following Retry-After would.
    const res = await fetch(`${baseUrl}/api/v1/sandbox/carriers`).catch((error: unknown) => {
      if (Date.now() > deadline) throw error;
      return undefined;
    });
    await res?.arrayBuffer();
    if (res && res.status !== 503) return;
    if (Date.now() > deadline) throw new Error(`sandbox still building after ${timeoutMs} ms`);
    // Retry-After says seconds; ask every second at most so a test starts as soon as it is built.
    const after = Number(res?.headers.get("retry-after") ?? "0.2");
    await new Promise((r) => setTimeout(r, Math.min(1, Math.max(after, 0.2)) * 1000));
  }
}
