import type { Exchange } from "./http";

export type Surface = "v1" | "sandbox" | "compat" | "graphql" | "mcp" | "share";

/**
 * Text that only an internal failure puts in an answer: a stack frame, a driver or library name, an
 * interpreter's own error sentence, validator internals, SQL, a NUL. Our own sentences never say these.
 */
export const INTERNAL_TEXT: readonly (readonly [string, RegExp])[] = [
  ["stack frame", /\bat .*\(.*:\d+:\d+\)/],
  ["node internals", /node:internal|node_modules/],
  ["source path", /\/(src|facades)\/[\w/.-]+\.ts\b/],
  ["Prisma", /Prisma/],
  ["undici error", /UND_ERR/],
  ["connection error", /ECONNREFUSED|ECONNRESET|EPIPE/],
  ["TypeError", /TypeError|ReferenceError|RangeError/],
  [
    "JSON.parse error",
    /SyntaxError|Unexpected token|Unexpected end of JSON input|" is not valid JSON|in JSON at position/,
  ],
  [
    "zod internals",
    /ZodError|\binvalid_type\b|"code"\s*:\s*"(too_small|too_big|invalid_union|unrecognized_keys|invalid_format|invalid_value)"/,
  ],
  [
    "SQL text",
    /\bSELECT\b[\s\S]{0,200}\bFROM\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE\s+"?\w+"?\s+SET\b|syntax error at or near|invalid byte sequence for encoding|violates (unique|foreign key|check|not-null) constraint|\brelation "\w+"/,
  ],
  ["NUL", new RegExp(`${String.fromCharCode(0)}|\\\\u0000`)],
];

/**
 * Internal text in an answer. A NUL the client itself sent may come back quoted in a validation
 * sentence (graphql-js prints the offending literal, escaped): that is the client's text, not ours.
 */
export function internalText(text: string, sent = ""): string[] {
  const echoesNul = INTERNAL_TEXT.find(([name]) => name === "NUL")![1].test(sent);
  return INTERNAL_TEXT.filter(([name, pattern]) => pattern.test(text) && !(name === "NUL" && echoesNul)).map(
    ([name]) => `internal text (${name})`,
  );
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const contentType = (ex: Exchange) => String(ex.responseHeaders["content-type"] ?? "");

/** The v1 error body of the contract (ErrorBody in the OpenAPI document; facades/v1/respond.ts). */
export function v1ErrorShape(ex: Exchange, body: unknown): string[] {
  if (!isObject(body)) return ["v1 error is not a JSON object"];
  const data = body.data;
  const ok =
    body.success === false &&
    body.statusCode === ex.status &&
    typeof body.statusMessage === "string" &&
    typeof body.message === "string" &&
    isObject(data) &&
    typeof data.error === "string";
  return ok ? [] : ["v1 error body lacks success:false, statusCode, statusMessage, message or data.error"];
}

/** JSON-RPC 2.0 messages of an MCP answer: a JSON body, or the `data:` lines of an event stream. */
export function jsonRpcMessages(ex: Exchange): unknown[] | null {
  if (contentType(ex).includes("text/event-stream")) {
    const messages = ex.text
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => parseJson(l.slice(5).trim()));
    return messages.every((m) => m.ok) ? messages.map((m) => (m as { value: unknown }).value) : null;
  }
  const parsed = parseJson(ex.text);
  if (!parsed.ok) return null;
  return Array.isArray(parsed.value) ? parsed.value : [parsed.value];
}

/** Whether an answer is in its surface's own format; each problem is a short, groupable sentence. */
export function formatProblems(surface: Surface, ex: Exchange): string[] {
  // A HEAD answer carries no body by definition; its status and headers are still checked.
  if (ex.method === "HEAD") return [];
  // An OPTIONS probe answered 204 carries no body either (RFC 9110 section 9.3.7), but must say what
  // the resource allows (or, for a CORS preflight, what the policy allows).
  if (ex.method === "OPTIONS" && ex.status === 204 && ex.text === "") {
    const says = ex.responseHeaders.allow ?? ex.responseHeaders["access-control-allow-methods"];
    return says ? [] : ["OPTIONS answered 204 without Allow"];
  }
  const json = contentType(ex).includes("json");
  const parsed = parseJson(ex.text);
  switch (surface) {
    case "v1":
    case "sandbox": {
      if (!json || !parsed.ok) return [`not JSON (${contentType(ex) || "no content type"})`];
      return ex.status >= 400 ? v1ErrorShape(ex, parsed.value) : [];
    }
    case "compat": {
      if (!json || !parsed.ok || !isObject(parsed.value))
        return [`not a compat envelope (${contentType(ex) || "no content type"})`];
      const body = parsed.value;
      if (body.status !== "success" && body.status !== "error")
        return ["compat envelope without status success|error"];
      if (typeof body.message !== "string") return ["compat envelope without message"];
      if (body.status === "error" && typeof body.detail !== "string")
        return ["compat refusal without detail"];
      // The contract's only statuses: 200 for every answer, refusals included, and 405 for a
      // non-GET verb (issue 39 item 7: a NUL in a parameter used to be a 400).
      const verbAllowed = ex.method === "GET" || ex.method === "HEAD";
      if (ex.status !== (verbAllowed ? 200 : 405))
        return [`compat answered HTTP ${ex.status} to ${ex.method} (the contract: 200, 405 for a non-GET)`];
      return [];
    }
    case "graphql": {
      if (!json || !parsed.ok || !isObject(parsed.value))
        return [`not a GraphQL JSON answer (${contentType(ex) || "no content type"})`];
      const body = parsed.value;
      if (body.errors !== undefined) {
        const ok =
          Array.isArray(body.errors) &&
          body.errors.length > 0 &&
          body.errors.every((e) => isObject(e) && typeof e.message === "string");
        if (!ok) return ["GraphQL errors is not a non-empty array of {message}"];
        // A masked error is our failure, not the client's: what it sent must earn a refusal with
        // its reason (issue 39 item 6: a year 0000 used to end as "Unexpected error.").
        const masked = (body.errors as Record<string, unknown>[]).filter(
          (e) => isObject(e.extensions) && e.extensions.code === "INTERNAL_SERVER_ERROR",
        );
        if (masked.length > 0) return [`masked internal error: ${String(masked[0]!.message)}`];
        return [];
      }
      return "data" in body ? [] : ["GraphQL answer with neither data nor errors"];
    }
    case "mcp": {
      // A notification (or a batch of them) is accepted with 202 and no body.
      if (ex.status === 202 && ex.text === "") return [];
      const messages = jsonRpcMessages(ex);
      if (!messages || messages.length === 0)
        return [`not JSON-RPC (${contentType(ex) || "no content type"})`];
      const ok = messages.every(
        (m) =>
          isObject(m) &&
          m.jsonrpc === "2.0" &&
          ("result" in m ||
            (isObject(m.error) && typeof m.error.code === "number" && typeof m.error.message === "string")),
      );
      return ok ? [] : ["not JSON-RPC 2.0 objects with result or error{code,message}"];
    }
    case "share": {
      // The share page's own format is HTML; a refusal before the page router may use the v1 body.
      if (contentType(ex).includes("text/html")) return [];
      if (json && parsed.ok && ex.status >= 400) return v1ErrorShape(ex, parsed.value);
      return [`share answer neither HTML nor the v1 error body (${contentType(ex) || "no content type"})`];
    }
  }
}

/** The part of an answer that must carry no internal text (not legitimate content such as doc search). */
export function errorText(surface: Surface, ex: Exchange): string {
  if (surface === "graphql") {
    const parsed = parseJson(ex.text);
    if (parsed.ok && isObject(parsed.value)) return JSON.stringify(parsed.value.errors ?? "");
    return ex.text;
  }
  if (surface === "mcp") {
    const messages = jsonRpcMessages(ex);
    if (!messages) return ex.text;
    return JSON.stringify(
      messages.map((m) =>
        isObject(m) ? (m.error ?? (isObject(m.result) && m.result.isError ? m.result : null)) : m,
      ),
    );
  }
  if (surface === "compat") {
    const parsed = parseJson(ex.text);
    const failed = !parsed.ok || (parsed.value as { status?: unknown } | null)?.status !== "success";
    return failed ? ex.text : "";
  }
  // A successful answer may quote documentation (the OpenAPI document names TypeError); refusals may not.
  return ex.status >= 400 ? ex.text : "";
}

/** Every property an answer must have, whatever was sent. */
export function answerProblems(surface: Surface, ex: Exchange): string[] {
  const problems: string[] = [];
  if (ex.status >= 500) problems.push(`5xx (${ex.status})`);
  if (ex.status === 0) problems.push("no status");
  problems.push(...internalText(errorText(surface, ex), `${ex.path}${ex.body ?? ""}`));
  problems.push(...formatProblems(surface, ex));
  if (ex.responseHeaders["x-content-type-options"] !== "nosniff")
    problems.push("no X-Content-Type-Options: nosniff");
  return problems;
}
