import type { Clock } from "../../lib/clock";
import type { Semaphore } from "./concurrency";
import { type AttemptFailure, decideRetry, parseRetryAfterMs, type RetryPolicy } from "./retry-policy";

/** Waits `ms`; rejects with the signal's reason when aborted. Injected so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export interface HttpDeps {
  fetch: typeof fetch;
  clock: Clock;
  sleep: Sleep;
  random: () => number;
  semaphore: Semaphore;
  timeoutMs: number;
  retry: RetryPolicy;
  maxBodyBytes: number;
  /** Asked before every attempt and told of every answer: the carrier's cooldown and budget. */
  gate?: RequestGate;
}

/** What a client owes a server beyond one request: waits it asked for, and a budget of calls. */
export interface RequestGate {
  /**
   * Before an attempt: go ahead (after any short wait), or hold off for `retryAfterSeconds`.
   * `waitedOut`: this attempt follows a wait the server itself asked for, just slept by this request.
   */
  admit(
    signal: AbortSignal | undefined,
    waitedOut: boolean,
  ): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
  /** Every answer's status and `Retry-After` (ms), so a request to wait outlives the request. */
  answered(status: number, retryAfterMs: number | null): Promise<void>;
}

export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export type HttpResult =
  /** The last answer: a success, a refusal, or a retryable status once retries are spent. */
  | {
      kind: "response";
      status: number;
      headers: Headers;
      body: string;
      attempts: number;
      retryAfterMs: number | null;
    }
  | { kind: "network-error"; reason: string; attempts: number }
  | { kind: "timeout"; reason: string; attempts: number }
  | { kind: "too-large"; reason: string; attempts: number }
  /** The gate held the attempt back (cooldown or spent budget); the server was not called. */
  | { kind: "held"; reason: string; attempts: number; retryAfterSeconds: number };

class BodyTooLarge extends Error {}

/**
 * One logical request: each attempt holds a concurrency slot and has its own timeout; between
 * attempts the slot is released and the backoff (or `Retry-After`) is slept. A caller abort rejects
 * with the signal's reason, as `fetch` itself does.
 */
export async function requestWithRetry(
  deps: HttpDeps,
  request: HttpRequest,
  signal?: AbortSignal,
): Promise<HttpResult> {
  let waitedOut = false;
  for (let attempt = 1; ; attempt++) {
    if (deps.gate) {
      const admission = await deps.gate.admit(signal, waitedOut);
      if (!admission.ok) {
        return {
          kind: "held",
          reason: `not called: waiting ${admission.retryAfterSeconds} s (the server's Retry-After or our request budget)`,
          attempts: attempt - 1,
          retryAfterSeconds: admission.retryAfterSeconds,
        };
      }
    }
    const outcome = await deps.semaphore.run(() => attemptOnce(deps, request, signal), signal);
    let failure: AttemptFailure;
    if (outcome.kind === "response") {
      const retryAfterMs = parseRetryAfterMs(outcome.headers.get("retry-after"), deps.clock.now());
      await deps.gate?.answered(outcome.status, retryAfterMs);
      const result = { ...outcome, attempts: attempt, retryAfterMs };
      if (outcome.status < 400) return result;
      failure = { kind: "status", status: outcome.status, retryAfterMs };
      const decision = decideRetry(failure, attempt, deps.retry, deps.random);
      if (!decision.retry) return result;
      await deps.sleep(decision.delayMs, signal);
      waitedOut = retryAfterMs !== null;
      continue;
    }
    if (outcome.kind === "too-large") return { ...outcome, attempts: attempt };
    failure = { kind: outcome.kind === "timeout" ? "timeout" : "network" };
    const decision = decideRetry(failure, attempt, deps.retry, deps.random);
    if (!decision.retry) return { ...outcome, attempts: attempt };
    await deps.sleep(decision.delayMs, signal);
    waitedOut = false;
  }
}

type AttemptOutcome =
  | { kind: "response"; status: number; headers: Headers; body: string }
  | { kind: "network-error"; reason: string }
  | { kind: "timeout"; reason: string }
  | { kind: "too-large"; reason: string };

async function attemptOnce(
  deps: HttpDeps,
  request: HttpRequest,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  if (signal?.aborted) throw signal.reason;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error("timeout")), deps.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    const response = await deps.fetch(request.url, {
      method: request.method ?? "GET",
      headers: request.headers,
      body: request.body,
      signal: combined,
      redirect: "manual",
    });
    const body = await readCapped(response, deps.maxBodyBytes);
    return { kind: "response", status: response.status, headers: response.headers, body };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.signal.aborted) {
      return { kind: "timeout", reason: `no answer within ${deps.timeoutMs} ms` };
    }
    if (error instanceof BodyTooLarge) return { kind: "too-large", reason: error.message };
    return { kind: "network-error", reason: describeNetworkError(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new BodyTooLarge(`body of ${declared} bytes exceeds the ${maxBytes}-byte limit`);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge(`body exceeds the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return decodeBody(Buffer.concat(chunks), response.headers.get("content-type"));
}

/**
 * The body as text in the charset its `Content-Type` names (UTF-8 when none or an unknown one), a
 * leading byte-order mark removed: a BOM is not part of a JSON text (RFC 8259 §8.1 lets a reader
 * ignore it) and some carriers' gateways add one. (`fetch` has already undone gzip, deflate or br.)
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  // TextDecoder drops the BOM of its own encoding; a UTF-8 BOM under a latin-1 label is dropped here.
  return decoder.decode(bytes).replace(/^(?:\uFEFF|\u00EF\u00BB\u00BF)/, "");
}

/** undici reports "fetch failed" and hides the useful part (ECONNREFUSED ...) in `cause`. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as Error & { code?: unknown }).code;
      parts.push(typeof code === "string" ? `${code}: ${current.message}` : current.message);
      current = (current as Error & { cause?: unknown }).cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(" <- ") || "network error";
}
