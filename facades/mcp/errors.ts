import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { OUTCOMES, type OutcomeCode, refusalData } from "../../src/http/outcomes";
import { PROTOCOL_ERROR_META } from "./tool";

interface Issue {
  path: (string | number)[];
  message: string;
}

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/**
 * Rewrites the SDK's internal-error answers before they leave. The SDK validates each request's
 * params against the method's schema and, when that fails, answers -32603 (1.x) or -32602 (2.x) with
 * the validator's issue list serialised into the message: that is the client's mistake, so it becomes the outcome table's
 * invalid-params code with one readable line per issue. Any other -32603 is masked (and logged), as
 * every surface masks an unexpected failure.
 */
export function clarifyErrors(message: JSONRPCMessage, log: (error: unknown) => void): JSONRPCMessage {
  const protocolError = protocolErrorOf(message);
  if (protocolError) return protocolError;
  if (!("error" in message)) return message;
  const { code } = message.error;
  if (code !== INTERNAL_ERROR && code !== INVALID_PARAMS) return message;
  const issues = issuesOf(message.error.message);
  if (code === INVALID_PARAMS && !issues) return message;
  if (issues) {
    const wire = OUTCOMES.bad_request;
    const detail = issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; ");
    return {
      ...message,
      error: {
        code: wire.mcp.jsonRpcCode,
        message: `Invalid params: ${detail}`,
        data: { error: wire.v1.error },
      },
    };
  }
  log(message.error);
  const wire = OUTCOMES.unexpected;
  return { ...message, error: { code: wire.mcp.jsonRpcCode, message: wire.sentence } };
}

/**
 * The validator's issues when `text` is its serialised issue list, alone (SDK 1.x, -32603) or after a
 * sentence such as "Invalid tools/call request: " (SDK 2.x, -32602), else undefined.
 */
function issuesOf(text: string): Issue[] | undefined {
  const list = /^(?:[^[]*: )?(\[[\s\S]*\])\s*$/.exec(text)?.[1];
  if (!list) return undefined;
  try {
    const parsed: unknown = JSON.parse(list);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    const issues = parsed.filter(
      (i): i is Issue =>
        typeof i === "object" && i !== null && Array.isArray(i.path) && typeof i.message === "string",
    );
    return issues.length === parsed.length ? issues : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A tool result marked as the server's failure (`PROTOCOL_ERROR_META`, the database unavailable) as
 * the outcome's JSON-RPC error: a client retries a protocol error, where it would read a tool's
 * `isError` result as the answer.
 */
function protocolErrorOf(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!("result" in message) || !("id" in message)) return undefined;
  const outcome = message.result._meta?.[PROTOCOL_ERROR_META];
  if (typeof outcome !== "string" || !(outcome in OUTCOMES)) return undefined;
  const code = outcome as OutcomeCode;
  const wire = OUTCOMES[code];
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: wire.mcp.jsonRpcCode, message: wire.sentence, data: refusalData(code) },
  };
}
