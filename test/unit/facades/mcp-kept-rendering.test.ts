/**
 * Issue 37: a kept operation's result is the same object on every hit of the answer cache, so a tool
 * renders it once per stored version, its MCP result is made once, and the SDK's validation of the
 * structured content against the output schema walks it once.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { portable } from "../../../facades/mcp/portable-schema";
import { answer, keptRendering, toolResult } from "../../../facades/mcp/tool";

describe("a tool's answer drawn once per kept result", () => {
  it("renders a result object once, and another object again", () => {
    let drawn = 0;
    const render = keptRendering((kept: { n: number }) => {
      drawn++;
      return { twice: kept.n * 2 };
    });
    const kept = { n: 2 };
    const first = render(kept);
    expect(render(kept)).toBe(first);
    expect(drawn).toBe(1);
    expect(render({ n: 2 })).toEqual(first);
    expect(drawn).toBe(2);
  });

  it("makes the MCP result of one answer object once, and each refusal anew", () => {
    const data = { status: "IN_TRANSIT" };
    const result = toolResult(answer(data));
    expect(toolResult(answer(data))).toBe(result);
    expect(result).toEqual({
      content: [{ type: "text", text: '{"status":"IN_TRANSIT"}' }],
      structuredContent: data,
    });
    expect(toolResult(answer({ status: "IN_TRANSIT" }))).not.toBe(result);
  });

  it("validates an object that passed once without walking it again, and still refuses a bad one", () => {
    let walks = 0;
    const schema = portable(
      z.object({
        status: z.string().refine(() => {
          walks++;
          return true;
        }),
      }),
    );
    const validate = (value: unknown) => schema["~standard"].validate(value) as { issues?: unknown[] };
    const good = { status: "DELIVERED" };
    expect(validate(good).issues).toBeUndefined();
    expect(validate(good).issues).toBeUndefined();
    expect(walks).toBe(1);
    const bad = { status: 42 };
    expect(validate(bad).issues).toHaveLength(1);
    expect(validate(bad).issues).toHaveLength(1);
  });
});
