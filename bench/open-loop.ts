import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";

/**
 * The harness's constant-rate client, run as a process of its own pinned to the load CPUs like wrk:
 * `node --import tsx bench/open-loop.ts <config.json> [<result.json>]`, the run as JSON in the result
 * file, or one line `OPEN_LOOP {...}` on stdout without one.
 *
 * Open loop: request i is due at start + i / rate whatever the earlier answers did, and its latency
 * runs from that due time, not from when the socket got it. A closed loop (wrk's 50 connections)
 * sends the next request only after an answer, so a stalled server is simply asked less and the
 * stall hides in a few slow samples (coordinated omission); here a stall delays every request due
 * meanwhile, and each of them carries its wait. A rate the server cannot keep up with shows as an
 * achieved rate below the offered one, a growing latency and, past the timeout, unanswered requests.
 */
export interface OpenLoopRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopConfig {
  url: string;
  /** Offered requests a second. */
  rate: number;
  seconds: number;
  /** Sent in turn (request i is requests[i % length]). */
  requests: OpenLoopRequest[];
  /** A request unanswered this long after its due time counts as a timeout. */
  timeoutMs: number;
  /** Sockets the client may open; beyond that, requests wait in the client (and the wait is counted). */
  maxSockets: number;
}

export interface OpenLoopRun {
  offeredRps: number;
  seconds: number;
  scheduled: number;
  answered: number;
  /** Status 2xx. */
  ok: number;
  /** Answered with a status >= 300. */
  non2xx: number;
  /** Answers by HTTP status (a 429 says a rate window, not the server's speed, refused). */
  byStatus: Record<string, number>;
  /** Socket errors and timeouts: requests that never got an answer. */
  errors: number;
  timeouts: number;
  /** Answers received per second from the first due time to the last answer. */
  achievedRps: number;
  /** Latency from each request's due time to the end of its answer, over the answered ones. */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** How late the client itself put requests on the wire (its own timer and CPU), p99 and max. */
  sendLagP99Ms: number;
  sendLagMaxMs: number;
  /** Sampled answer bodies (one in BODY_SAMPLE_EVERY, 2xx only) for the harness's check. */
  samples: { status: number; body: string }[];
}

const BODY_SAMPLE_EVERY = 97;
const MAX_SAMPLES = 20;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function runOpenLoop(config: OpenLoopConfig): Promise<OpenLoopRun> {
  const total = Math.round(config.rate * config.seconds);
  const interval = 1000 / config.rate;
  const target = new URL(config.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.maxSockets });
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  const samples: OpenLoopRun["samples"] = [];
  let answered = 0;
  let ok = 0;
  let non2xx = 0;
  const byStatus: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let settled = 0;
  let lastAnswerAt = 0;
  let sent = 0;

  return new Promise((resolve) => {
    const start = performance.now();
    const finish = () => {
      agent.destroy();
      const sorted = latencies.slice(0, answered).sort();
      const sortedLags = lags.slice(0, sent).sort();
      let sum = 0;
      for (const v of sorted) sum += v;
      const span = (lastAnswerAt - start) / 1000;
      resolve({
        offeredRps: config.rate,
        seconds: config.seconds,
        scheduled: total,
        answered,
        ok,
        non2xx,
        byStatus,
        errors,
        timeouts,
        achievedRps: span > 0 ? answered / Math.max(span, config.seconds) : 0,
        p50Ms: percentile(sorted, 50),
        p90Ms: percentile(sorted, 90),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
        meanMs: sorted.length > 0 ? sum / sorted.length : Number.NaN,
        sendLagP99Ms: percentile(sortedLags, 99),
        sendLagMaxMs: sortedLags.length > 0 ? sortedLags[sortedLags.length - 1]! : Number.NaN,
        samples,
      });
    };
    const settle = () => {
      settled++;
      if (settled === total) finish();
    };
    const send = (i: number) => {
      const due = start + i * interval;
      lags[sent++] = performance.now() - due;
      const spec = config.requests[i % config.requests.length]!;
      let done = false;
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: spec.method,
          path: spec.path,
          headers: spec.body
            ? { ...spec.headers, "content-length": Buffer.byteLength(spec.body) }
            : spec.headers,
          agent,
        },
        (res) => {
          const keep = i % BODY_SAMPLE_EVERY === 0 && samples.length < MAX_SAMPLES;
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => {
            if (keep) chunks.push(chunk);
          });
          res.on("end", () => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            const now = performance.now();
            latencies[answered++] = now - due;
            lastAnswerAt = now;
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) ok++;
            else non2xx++;
            byStatus[status] = (byStatus[status] ?? 0) + 1;
            if (keep) samples.push({ status, body: Buffer.concat(chunks).toString("utf8") });
            settle();
          });
        },
      );
      // From the due time: a request stuck in the client's own queue times out like any other.
      const timer = setTimeout(
        () => {
          if (done) return;
          done = true;
          timeouts++;
          errors++;
          req.destroy();
          settle();
        },
        Math.max(0, due + config.timeoutMs - performance.now()),
      );
      req.on("error", () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        errors++;
        settle();
      });
      req.end(spec.body);
    };
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    if (total === 0) finish();
    else tick();
  });
}

// This file is the process (the harness imports its types only). The harness names a result file: the
// sampled answers (a full stored read each) make the line longer than the output it keeps of a child.
const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as OpenLoopConfig;
const run = await runOpenLoop(config);
if (process.argv[3]) writeFileSync(process.argv[3], JSON.stringify(run));
else process.stdout.write(`OPEN_LOOP ${JSON.stringify(run)}\n`);
