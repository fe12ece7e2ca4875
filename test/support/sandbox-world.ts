import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { inject } from "vitest";
import { provideSandboxWorldImage, SandboxWorld, type SandboxWorldImage } from "../../src/app/sandbox-world";
import { loadConfig } from "../../src/config";
import { provideMigratedTemplate } from "../../src/db/migrated-template";
import { createLogger } from "../../src/observability/logger";

/**
 * The environment every test app starts with before its own (`startTestApp`), and the one the run's
 * sandbox world is built with: an app whose configuration comes out the same loads that world.
 */
export const TEST_APP_ENVIRONMENT: Readonly<Record<string, string>> = {
  PORT: "0",
  QUAYSIDE_DEMO: "false",
  QUAYSIDE_SIMULATOR: "off",
  // Tests never read the real news feeds; a test that ingests names its sources.
  QUAYSIDE_DISRUPTION_FEEDS: "off",
  QUAYSIDE_LOG_LEVEL: "info",
  // The test's fetch keeps a socket until a second or two before the server's keep-alive hint, and
  // both run on this process's one event loop: on a loaded machine the server's 5 s close landed
  // first and the next request on that socket failed ("other side closed"). A minute leaves the race
  // to a test idle that long; the files about keep-alive and silent sockets set their own.
  QUAYSIDE_KEEP_ALIVE_TIMEOUT_MS: "60000",
};

/**
 * Builds the sandbox world once for the run (the global setup; 16 to 18 s of CPU that every file whose
 * app reads the sandbox spent again) and writes it as two files: its database's dump, and the rest as
 * JSON naming the dump. Returns the JSON's path.
 */
export async function writeSandboxWorldImage(root: string, pgliteTemplate: string): Promise<string> {
  provideMigratedTemplate(readFile(pgliteTemplate).then((bytes) => new Blob([bytes])));
  const config = loadConfig({ ...TEST_APP_ENVIRONMENT, QUAYSIDE_DATA_DIR: "memory://" });
  const lines: string[] = [];
  const logger = createLogger(
    "warn",
    new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const world = await SandboxWorld.create({
    config,
    logger,
    sampleSender: {
      sendSample: () => Promise.reject(new Error("the run's sandbox world sends no sample deliveries")),
    },
  }).catch((error: unknown) => {
    throw new Error(`building the run's sandbox world failed: ${String(error)}\n${lines.join("")}`);
  });
  try {
    const { database, ...rest } = await world.takeImage();
    const databaseFile = path.join(root, "sandbox-world.tar");
    await writeFile(databaseFile, database);
    const file = path.join(root, "sandbox-world.json");
    await writeFile(file, JSON.stringify({ ...rest, databaseFile }));
    return file;
  } finally {
    await world.close();
  }
}

let image: Promise<SandboxWorldImage> | undefined;

/**
 * Hands the run's sandbox world to this process's apps (read once per test process): a world whose
 * configuration matches loads it instead of building its own; any other builds as in production.
 */
export function provideRunSandboxWorld(): void {
  const file = inject("sandboxWorld");
  if (!file) return;
  image ??= readFile(file, "utf8").then(async (json) => {
    const { databaseFile, ...rest } = JSON.parse(json) as Omit<SandboxWorldImage, "database"> & {
      databaseFile: string;
    };
    return { ...rest, database: new Uint8Array(await readFile(databaseFile)) };
  });
  provideSandboxWorldImage(image);
}
