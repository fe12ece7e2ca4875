import fc from "fast-check";
import type { ManualClock } from "../../../src/lib/clock";
import type { TestApp } from "../../support/app";
import { answerProblems, type Surface } from "./checks";
import { Findings } from "./findings";
import { type Exchange, type RawRequest, send } from "./http";
import { changedTables, organizationState } from "./state";

/** Test-app settings every fuzz file shares: the real carrier simulator, fast failure, no background jobs. */
export const FUZZ_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_CARRIER_TIMEOUT_MS: "3000",
  // Background jobs would change stored state between two snapshots and blur "no change on a refusal".
  QUAYSIDE_WORKERS: "off",
};

/** A request the fuzz sends, with the operation it exercises (the grouping key of its findings). */
export interface FuzzCase {
  operation: string;
  surface: Surface;
  request: RawRequest;
}

export interface FuzzRun {
  app: TestApp;
  clock: ManualClock;
  label: string;
  seed: number;
  numRuns: number;
  cases: fc.Arbitrary<FuzzCase>;
  /** The organisation whose stored state a refusal must leave as it was. */
  organizationId: string;
  /** Whether an answer is a refusal, after which the organisation's state must be unchanged. */
  isRefusal: (surface: Surface, ex: Exchange) => boolean;
  /** Tables a surface changes on refusals by contract (see organizationState). */
  ignoreTables?: (surface: Surface) => readonly string[];
  /** Requests between two moves of the clock past a minute boundary (key and address windows reset). */
  requestsPerWindow?: number;
}

async function exchange(run: FuzzRun, request: RawRequest): Promise<Exchange> {
  try {
    return await send(run.app.url, request);
  } catch (error) {
    return {
      method: request.method,
      path: request.path,
      headers: request.headers ?? {},
      body: request.body?.toString(),
      status: 0,
      responseHeaders: {},
      text: `connection failed: ${(error as Error).message}`,
    };
  }
}

/** Replays of single refusals when a batch changed state, to name the culprits (bounded: a few minutes in all). */
const MAX_CULPRIT_REPLAYS = 25;

/**
 * Sends `numRuns` generated requests one after another and checks every answer; then sends every
 * request that was refused again, as one batch, between two snapshots of the organisation's stored
 * state, which must be equal (when not, refusals are replayed one by one to name the ones that wrote).
 * Every violation is collected rather than stopping at the first, so one run lists every distinct cause
 * (with the seed and the first request that showed each).
 */
export async function runFuzz(run: FuzzRun): Promise<Findings> {
  const findings = new Findings(run.label, run.seed);
  const samples = fc.sample(run.cases, { seed: run.seed, numRuns: run.numRuns });
  const window = run.requestsPerWindow ?? 100;
  const refused: FuzzCase[] = [];
  for (const [i, sample] of samples.entries()) {
    if (i % window === 0) run.clock.advance(61_000);
    const ex = await exchange(run, sample.request);
    findings.requests++;
    findings.add(sample.operation, ex, answerProblems(sample.surface, ex));
    if (run.isRefusal(sample.surface, ex)) refused.push(sample);
  }
  findings.refusals = refused.length;

  const bySurface = new Map<Surface, FuzzCase[]>();
  for (const sample of refused)
    bySurface.set(sample.surface, [...(bySurface.get(sample.surface) ?? []), sample]);
  for (const [surface, batch] of bySurface) {
    const ignore = run.ignoreTables?.(surface) ?? [];
    run.clock.advance(61_000);
    const before = await organizationState(run.app, run.organizationId, ignore);
    for (const [i, sample] of batch.entries()) {
      if (i % window === 0 && i > 0) run.clock.advance(61_000);
      await exchange(run, sample.request);
    }
    const after = await organizationState(run.app, run.organizationId, ignore);
    if (changedTables(before, after).length === 0) continue;
    let named = 0;
    for (const sample of batch.slice(0, MAX_CULPRIT_REPLAYS)) {
      run.clock.advance(61_000);
      const one = await organizationState(run.app, run.organizationId, ignore);
      const ex = await exchange(run, sample.request);
      const changed = changedTables(one, await organizationState(run.app, run.organizationId, ignore));
      if (changed.length > 0 && run.isRefusal(surface, ex)) {
        findings.add(sample.operation, ex, [`state changed on a refusal (${changed.join(", ")})`]);
        named++;
      }
    }
    if (named === 0) {
      findings.add(`${surface} refusals`, await exchange(run, batch[0]!.request), [
        `state changed over a batch of ${batch.length} refusals (${changedTables(before, after).join(", ")}); no single replay of the first ${MAX_CULPRIT_REPLAYS} showed it`,
      ]);
    }
  }
  return findings;
}

/** A weighted choice between the well-formed request and its hostile variants. */
export const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));
