/**
 * The 20-message batch cap (spec v1 section 8) and what a POST spends from the key's minute window:
 * one request per JSON-RPC message, so a batch of 20 costs what 20 single POSTs cost. A batch is
 * checked before anyone is authenticated or the SDK sees it, and refused whole.
 */
export const MAX_BATCH_MESSAGES = 20;

export type BodyShape =
  | { ok: true; messages: number; requestId: string | number | null }
  | { ok: false; message: string };

/** Pure: how many messages a parsed body holds, and the id to answer a refusal with. */
export function inspectBody(body: unknown): BodyShape {
  if (!Array.isArray(body)) {
    const id = (body as { id?: unknown } | null)?.id;
    return { ok: true, messages: 1, requestId: typeof id === "string" || typeof id === "number" ? id : null };
  }
  if (body.length === 0) return { ok: false, message: "An empty batch holds no JSON-RPC message." };
  if (body.length > MAX_BATCH_MESSAGES) {
    return {
      ok: false,
      message: `A batch holds at most ${MAX_BATCH_MESSAGES} messages; this one holds ${body.length}, so none of them was run.`,
    };
  }
  return { ok: true, messages: body.length, requestId: null };
}
