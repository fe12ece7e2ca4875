import { describe, expect, it } from "vitest";
import { ScopedStorage } from "../../../src/lib/scoped-storage";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a scoped storage", () => {
  it("gives each run its store across awaits, and nothing outside a run", async () => {
    const storage = new ScopedStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    const seen = await storage.run("answer", async () => {
      await tick();
      const first = storage.getStore();
      await Promise.all([tick(), tick()]);
      return [first, storage.getStore()];
    });
    expect(seen).toEqual(["answer", "answer"]);
    expect(storage.getStore()).toBeUndefined();
    await tick();
    expect(storage.getStore()).toBeUndefined();
  });

  it("keeps a run's store when another run ends before it, and switches off only after the last", async () => {
    const storage = new ScopedStorage<string>();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const long = storage.run("long", async () => {
      await gate;
      await tick();
      return storage.getStore();
    });
    expect(await storage.run("short", async () => storage.getStore())).toBe("short");
    open();
    expect(await long).toBe("long");
    expect(storage.getStore()).toBeUndefined();
    // Switched on again by the next run.
    const again = await storage.run("again", async () => {
      await tick();
      return storage.getStore();
    });
    expect(again).toBe("again");
  });

  it("runs what exit starts outside the store", async () => {
    const storage = new ScopedStorage<string>();
    const inside = await storage.run("write", async () => storage.exit(() => storage.getStore()));
    expect(inside).toBeUndefined();
  });
});
