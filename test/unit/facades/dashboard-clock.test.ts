import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No clock reaches the dashboard facade (issue 38): "arriving within 7 days", a key's expiry, a
 * refresh that is due are the core's fields, computed on its injected clock. The check reads the
 * code, not the text, so the page script's `new Date(...)` inside a string (the reader's own zone,
 * in the browser) is not counted.
 */
const ROOT = path.resolve(import.meta.dirname, "../../../facades/dashboard");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** Every place the code reads the clock: `new Date()` with no argument, `Date.now()`, `performance.now()`. */
function clockReads(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(ROOT, fileName)}:${line + 1}: ${node.getText()}`;
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isNewExpression(node) &&
      node.expression.getText() === "Date" &&
      (node.arguments?.length ?? 0) === 0
    )
      found.push(at(node));
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ["Date.now", "performance.now"].includes(node.expression.getText())
    )
      found.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("the dashboard facade reads no clock", () => {
  it("has no new Date(), Date.now() or performance.now() in its code", () => {
    const reads = sources(ROOT).flatMap((f) => clockReads(f, readFileSync(f, "utf8")));
    expect(reads).toEqual([]);
  });

  it("would catch a page that decides with the clock, and not the browser script's string", () => {
    const page =
      'const late = expiresAt <= new Date();\nconst soon = Date.now() + 7 * 86_400_000;\nconst s = "new Date()";';
    expect(clockReads(path.join(ROOT, "pages/probe.ts"), page)).toEqual([
      "pages/probe.ts:1: new Date()",
      "pages/probe.ts:2: Date.now()",
    ]);
  });
});
