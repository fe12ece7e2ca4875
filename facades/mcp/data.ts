import { ProtocolError, ResourceNotFoundError } from "@modelcontextprotocol/server";
import { OUTCOMES, type OutcomeCode, refusalData } from "../../src/http/outcomes";
import type { McpTool, ToolContext } from "./tool";

/**
 * A tool's answer for a resource or a prompt: the same call, as the same principal, under the same
 * plan, visibility and allowance rules, so an attached resource or a ready prompt can never show more
 * (or other) than the tool would. A refusal is thrown as the JSON-RPC error a resource or prompt
 * answers with (there is no `isError` result outside tools/call): what the outcome table calls not
 * found (another organisation's reference included) is the protocol's resource-not-found
 * (`-32602` with the URI in `data`, SEP-2164), anything else the outcome's own code and sentence.
 */
export async function toolData<T = Record<string, unknown>>(
  tool: McpTool,
  args: Record<string, unknown>,
  context: ToolContext,
  options: { uri?: string } = {},
): Promise<T> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.join(".") || "argument"}: ${i.message}`)
      .join("; ");
    if (options.uri)
      throw new ResourceNotFoundError(options.uri, `Resource not found: ${options.uri} (${detail})`);
    throw new ProtocolError(OUTCOMES.bad_request.mcp.jsonRpcCode, `Invalid arguments: ${detail}`);
  }
  const answer = await tool.call(parsed.data, context);
  if (answer.ok) return answer.data as T;
  throw refusalError(answer.outcome, answer.message, options.uri);
}

export function refusalError(outcome: OutcomeCode, message: string | undefined, uri?: string): ProtocolError {
  const wire = OUTCOMES[outcome];
  const sentence = message ?? wire.sentence;
  if (uri && wire.v1.status === 404) return new ResourceNotFoundError(uri, sentence);
  return new ProtocolError(wire.mcp.jsonRpcCode, sentence, {
    ...refusalData(outcome),
    ...(uri ? { uri } : {}),
  });
}
