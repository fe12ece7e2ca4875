import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { CallToolResult, McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { RunOperation, VariablesArgument } from "../../src/graphql/operation-runner";
import type { Principal } from "../../src/http/gate";
import { OUTCOMES, type OutcomeCode, outcomeForFailure } from "../../src/http/outcomes";
import type { FacadeLog, OperationResult } from "../facade";
import { portable } from "./portable-schema";

/** What the MCP server needs from the composition root: persisted operations, and a log for failures. */
export interface McpDeps {
  run: RunOperation;
  log: FacadeLog;
}

/** What a tool may do: run persisted operations as the key's principal. Nothing else. */
export interface ToolContext {
  run<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    ...variables: VariablesArgument<TVariables>
  ): Promise<OperationResult<TData>>;
}

export type ToolAnswer<T> = { ok: true; data: T } | { ok: false; outcome: OutcomeCode; message?: string };

export const answer = <T>(data: T): ToolAnswer<T> => ({ ok: true, data });
export const refusal = (outcome: OutcomeCode, message?: string): ToolAnswer<never> => ({
  ok: false,
  outcome,
  message,
});

/** An operation's coded error as the tool's refusal (the outcome table decides `isError`). */
export const refusalOf = (result: Extract<OperationResult<unknown>, { ok: false }>): ToolAnswer<never> =>
  refusal(result.outcome, result.message);

interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  /** snake_case, as section 4.4 of the v1 specification names it. */
  name: string;
  title: string;
  /** What the tool answers and when to use it: the text an assistant chooses tools by. */
  description: string;
  input: I;
  /** Keys are only ever added (section 9): every key is always present, null when unknown. */
  output: O;
  /** Reaches an outside provider (vessel positions, sailing schedules). */
  openWorld?: boolean;
  call(args: z.output<I>, context: ToolContext): Promise<ToolAnswer<z.input<O>>>;
}

/** A tool with its types erased, so the server can hold a list of different tools. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  openWorld: boolean;
  call(args: unknown, context: ToolContext): Promise<ToolAnswer<unknown>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): McpTool {
  return {
    ...definition,
    openWorld: definition.openWorld ?? false,
    // The SDK has parsed the arguments with `input` before calling.
    call: (args, context) => definition.call(args as z.output<I>, context),
  };
}

export function toolContext(deps: McpDeps, principal: Principal, requestId: string): ToolContext {
  return { run: (document, ...variables) => deps.run({ requestId, principal }, document, ...variables) };
}

/**
 * A tool's rendering of an operation's result, drawn once per result object. The answer cache serves
 * the same result object on every hit of a kept operation (memory store), so a tool whose answer is a
 * function of that object alone renders it once per stored version, not per call; a result the cache
 * drops takes its rendering along (a `WeakMap`). With the Redis store each hit is a new object and
 * renders as before. The rendering is shared: callers never change what it returns.
 */
export function keptRendering<K extends object, T>(render: (kept: K) => T): (kept: K) => T {
  const rendered = new WeakMap<K, T>();
  return (kept) => {
    if (rendered.has(kept)) return rendered.get(kept) as T;
    const drawn = render(kept);
    rendered.set(kept, drawn);
    return drawn;
  };
}

/** The MCP result of each answer object a tool returned: a kept rendering gives the same result. */
const resultOfAnswer = new WeakMap<object, CallToolResult>();

/** A tool's answer as the MCP result: structured content and the same JSON as text, or an error text. */
export function toolResult(result: ToolAnswer<unknown>): CallToolResult {
  if (result.ok) {
    const data = result.data as Record<string, unknown>;
    const made = typeof data === "object" && data !== null ? resultOfAnswer.get(data) : undefined;
    if (made) return made;
    const drawn: CallToolResult = {
      content: [{ type: "text", text: JSON.stringify(data) }],
      structuredContent: data,
    };
    if (typeof data === "object" && data !== null) resultOfAnswer.set(data, drawn);
    return drawn;
  }
  const wire = OUTCOMES[result.outcome];
  return {
    content: [{ type: "text", text: result.message ?? wire.sentence }],
    isError: wire.mcp.isError,
  };
}

/**
 * Marks a tool result that stands for a failure of the server rather than an answer of the tool (the
 * database unavailable): `clarifyErrors` turns it into the outcome's JSON-RPC error.
 */
export const PROTOCOL_ERROR_META = "quayside/outcome";

/**
 * Registers a tool: read-only by construction (it can only run persisted queries), and an unexpected
 * failure is logged and answered with the masked sentence, never the internal message. A database
 * outage is answered as the outcome table's JSON-RPC error, with `Retry-After`.
 */
export function registerTool(
  server: McpServer,
  tool: McpTool,
  context: ToolContext,
  log: (error: unknown, tool: string, outcome: OutcomeCode) => void,
): RegisteredTool {
  return server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: portable(tool.output),
      annotations: {
        title: tool.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: tool.openWorld,
      },
    },
    async (args: unknown) => {
      try {
        return toolResult(await tool.call(args, context));
      } catch (error) {
        const outcome = outcomeForFailure(error);
        log(error, tool.name, outcome);
        if (outcome === "unexpected") return toolResult(refusal(outcome));
        // The server's trouble, not the tool's answer: the router sends it as a JSON-RPC error.
        return { ...toolResult(refusal(outcome)), _meta: { [PROTOCOL_ERROR_META]: outcome } };
      }
    },
  );
}
