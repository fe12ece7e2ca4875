import { afterAll, describe, expect, it } from "vitest";
import { migratedServiceDatabase } from "../support/data-folder";
import { containerNumber } from "../support/references";
import { DEMO_KEY, type ServiceProcess, serviceEnvironment, startService } from "./service-process";

/**
 * Issue 39's done-when: no answer of 500 while `quayside serve` is killed with SIGKILL in the middle of
 * bulk and single tracking, and after it is started again on the same data. A request cut by the kill
 * gets no answer at all (a socket error), which is what a client of a killed process sees; every answer
 * that does come is a success or a refusal the outcome table names (503 with Retry-After while the
 * database is busy), never `internal_error`.
 */
const running: ServiceProcess[] = [];
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL");
});

const auth = { authorization: `Bearer ${DEMO_KEY}`, "content-type": "application/json" };

interface Tally {
  statuses: Map<number, number>;
  cut: number;
  internalErrors: string[];
}

async function track(url: string, body: unknown, tally: Tally): Promise<void> {
  try {
    const res = await fetch(`${url}/api/v1/track`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500 && res.status !== 503)
      tally.internalErrors.push(`${res.status} ${text.slice(0, 200)}`);
    if (res.status === 503) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  } catch {
    tally.cut += 1;
  }
}

const box = (scac: "MSCU" | "MAEU", serial: number) => ({
  type: "container",
  number: containerNumber(scac, serial),
  sealine: scac,
});

/**
 * Three bulks of 50 and ten single tracks at once, new references each round: three rounds stay within
 * the demo organisation's 500 shipment slots, so every round reaches the database's write path.
 */
async function round(url: string, n: number, tally: Tally): Promise<void> {
  const base = 300_000 + n * 1_000;
  const bulks = Array.from({ length: 3 }, (_, b) =>
    track(url, { shipments: Array.from({ length: 50 }, (_, i) => box("MSCU", base + b * 60 + i)) }, tally),
  );
  const singles = Array.from({ length: 10 }, (_, i) =>
    track(url, { shipments: [box("MAEU", base + i)] }, tally),
  );
  await Promise.all([...bulks, ...singles]);
}

describe("kill -9 under bulk tracking", () => {
  it("never answers 500, before the kill, while it dies, or after the restart", async () => {
    // Migrated already: the kill and the restart are the subject, not a first start's migrations.
    const target = await migratedServiceDatabase();
    const dataDir = target.kind === "pglite" ? target.dataDir : "";
    const env = { ...serviceEnvironment(target, dataDir), QUAYSIDE_SIMULATOR_PORT: "0" };
    const tally: Tally = { statuses: new Map(), cut: 0, internalErrors: [] };

    const first = await startService(env);
    running.push(first);
    await round(first.url, 0, tally);
    // Killed while a second round is in flight.
    const inFlight = round(first.url, 1, tally);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    first.child.kill("SIGKILL");
    await first.exited;
    await inFlight;

    const again = await startService(env);
    running.push(again);
    await round(again.url, 2, tally);

    expect(tally.internalErrors).toEqual([]);
    // The service did answer: most requests were served, not cut.
    const answered = [...tally.statuses.values()].reduce((a, b) => a + b, 0);
    expect(answered).toBeGreaterThanOrEqual(26);
    expect(tally.statuses.get(200) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
