import { afterAll, expect } from "vitest";
import { appsLeftRunning } from "./app";

/**
 * The database lanes run their files one after another in a kept worker process (`isolate: false`,
 * vitest.config.ts). An app a file forgot to stop would keep its timers, workers and memory for every
 * later file: stopped here, after the file's own hooks, and the file fails so the leak gets fixed.
 */
afterAll(async () => {
  const left = appsLeftRunning();
  await Promise.all(left.map((app) => app.stop()));
  expect(
    left.map((app) => app.url),
    "apps this file started and never stopped",
  ).toEqual([]);
});
