import { describe, expect, it } from "vitest";
import { OneAtATime } from "../../../src/lib/one-at-a-time";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("one at a time per key", () => {
  it("runs one key's work in order, never two at once, and other keys beside it", async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work = (key: string, n: number) =>
      queue.run(key, async () => {
        running++;
        most = Math.max(most, running);
        log.push(`${key}${n} in`);
        await tick();
        log.push(`${key}${n} out`);
        running--;
        return n;
      });
    const answers = await Promise.all([work("a", 1), work("a", 2), work("b", 1), work("a", 3)]);
    expect(answers).toEqual([1, 2, 1, 3]);
    const a = log.filter((line) => line.startsWith("a"));
    expect(a).toEqual(["a1 in", "a1 out", "a2 in", "a2 out", "a3 in", "a3 out"]);
    expect(most).toBe(2); // "b" ran beside "a"
  });

  it("goes on with the key's next work after one fails, and the failure reaches its own caller", async () => {
    const queue = new OneAtATime();
    const failed = queue.run("org", async () => {
      throw new Error("no");
    });
    const next = queue.run("org", async () => "yes");
    await expect(failed).rejects.toThrow("no");
    await expect(next).resolves.toBe("yes");
  });
});
