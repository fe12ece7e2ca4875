import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { startTestApp, type TestApp } from "../support/app";
import { freePort, redisServerPath } from "../support/servers";

/**
 * Issue 27 item 6: with Redis stopped, two instances sharing it used to let 140 of 140 requests
 * through a window of 120 (the counters failed open). Now each instance falls back to its insurance
 * window, 1/N of the limit with N the instances Redis last saw; `/readyz` and `/metrics` say so; and
 * the exact shared window returns with Redis. A real redis-server, stopped and started again on its
 * port, under two instances of the app.
 */
const MID_MINUTE = "2026-11-22T10:00:30.000Z";
const binary = redisServerPath();

/** A redis-server this test may stop and start again on the same port. */
class RestartableRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      binary!,
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    await until(() => portOpen(this.port), "redis-server to listen");
  }

  /** Freezes the server (SIGSTOP): connections stay open and commands go unanswered, as under load. */
  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  resume(): void {
    this.child?.kill("SIGCONT");
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
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

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function readiness(app: TestApp): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${app.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function degradedGauge(app: TestApp): Promise<string | undefined> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  return /^quayside_rate_limit_degraded (\S+)$/m.exec(text)?.[1];
}

/** 140 simultaneous requests, alternating between the two instances. */
async function burst(first: TestApp, second: TestApp, key: string): Promise<number[]> {
  const responses = await Promise.all(
    Array.from({ length: 140 }, (_, i) =>
      fetch(`${(i % 2 ? first : second).url}/api/v1/carriers`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    ),
  );
  return responses.map((r) => r.status);
}

const apps: TestApp[] = [];
let redis: RestartableRedis | null = null;
afterAll(async () => {
  for (const app of apps) await app.stop();
  await redis?.stop();
});

describe("Redis down: insurance windows, reported, and the shared window back with Redis", () => {
  // CI installs redis-server (.ci/run); only a developer machine without it skips.
  it.skipIf(!binary && !process.env.CI)(
    "lets exactly the limit through two instances with Redis stopped, says so on /readyz and /metrics, and shares the window again once Redis is back",
    async () => {
      redis = new RestartableRedis(await freePort());
      await redis.start();
      const clock = new ManualClock(MID_MINUTE);
      const env = { REDIS_URL: redis.url };
      const first = await startTestApp({ clock, env });
      apps.push(first);
      const second = await startTestApp({ clock, env });
      apps.push(second);
      // One key (professional: 120 a minute) known to both instances, each with its own database.
      const { key } = await first.fixtures.organization({ plan: "professional" });
      const twin = await second.services.accounts.createOrganization({
        name: "Twin",
        plan: "professional",
        developerMode: true,
      });
      const twinUser = await second.services.accounts.createUser({
        organizationId: twin.id,
        email: "twin@example.com",
      });
      const original = (await first.services.accounts.listApiKeys({})).at(-1)!;
      await second.services.db.prisma.apiKey.create({
        data: {
          id: original.id,
          organizationId: twin.id,
          userId: twinUser.id,
          name: "twin",
          displayPrefix: original.displayPrefix,
          keyHash: original.keyHash,
        },
      });

      for (const app of [first, second]) {
        await until(
          async () => (await readiness(app)).body.instances === 2,
          "both instances to be seen in Redis",
        );
        expect(await readiness(app)).toEqual({
          status: 200,
          body: { status: "ready", database: app.services.db.kind, counters: "shared", instances: 2 },
        });
        expect(await degradedGauge(app)).toBe("0");
      }

      await redis.stop();
      for (const app of [first, second]) {
        // Still serving: degraded, not unready.
        expect(await readiness(app)).toEqual({
          status: 200,
          body: { status: "degraded", database: app.services.db.kind, counters: "insurance", instances: 2 },
        });
        expect(await degradedGauge(app)).toBe("1");
      }
      const whileDown = await burst(first, second, key);
      expect(whileDown.filter((s) => s === 200)).toHaveLength(120);
      expect(whileDown.filter((s) => s === 429)).toHaveLength(20);
      const insuranceCounts = await (await fetch(`${first.url}/metrics`)).text();
      expect(
        Number(/^quayside_rate_limit_insurance_counts_total (\S+)$/m.exec(insuranceCounts)?.[1]),
      ).toBeGreaterThan(70);
      for (const app of [first, second]) {
        expect(app.logs.map((l) => l.msg)).toContain(
          "Redis unreachable: rate windows and allowances fall back to this instance's insurance window (1/instances of each limit)",
        );
      }

      await redis.start();
      for (const app of [first, second]) {
        await until(async () => (await readiness(app)).body.counters === "shared", "the shared window");
        expect(await degradedGauge(app)).toBe("0");
        expect(app.logs.map((l) => l.msg)).toContain("Redis reachable again: rate windows are shared again");
      }
      // The next minute is counted in Redis again: exact across both instances.
      clock.advance(60_000);
      const backUp = await burst(first, second, key);
      expect(backUp.filter((s) => s === 200)).toHaveLength(120);
      expect(backUp.filter((s) => s === 429)).toHaveLength(20);
      expect(await degradedGauge(first)).toBe("0");
    },
    180_000,
  );

  // Issue 39 item 5: a command that timed out under load fell back mid-window to an insurance count
  // starting near 0, then back to Redis's count: the header went up and repeated values.
  it.skipIf(!binary && !process.env.CI)(
    "X-RateLimit-Remaining only goes down across one key's requests while Redis stalls and comes back",
    async () => {
      redis = new RestartableRedis(await freePort());
      await redis.start();
      const app = await startTestApp({
        clock: new ManualClock(MID_MINUTE),
        env: { REDIS_URL: redis.url, QUAYSIDE_MIN_INSTANCES: "2" },
      });
      apps.push(app);
      const { key } = await app.fixtures.organization({ plan: "professional" });
      const remaining: number[] = [];
      const call = async () => {
        const res = await fetch(`${app.url}/api/v1/carriers`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      };
      for (let i = 0; i < 10; i++) await call();
      // Redis stalls: each command times out after 1 s and the count falls back to the insurance window.
      redis.pause();
      try {
        for (let i = 0; i < 4; i++) await call();
        expect((await readiness(app)).body.counters).toBe("insurance");
      } finally {
        redis.resume();
      }
      await until(async () => (await readiness(app)).body.counters === "shared", "the shared window");
      for (let i = 0; i < 6; i++) await call();
      expect(remaining).toHaveLength(20);
      for (let i = 1; i < remaining.length; i++) {
        expect(remaining[i], `answer ${i + 1} of ${remaining.join(", ")}`).toBeLessThan(remaining[i - 1]!);
      }
    },
    120_000,
  );
});
