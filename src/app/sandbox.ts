import type { SandboxWorldAccess } from "../../facades/v1/sandbox";
import { reservedReference } from "../domain/sandbox/reserved-references";
import type { OperationExecutor } from "../graphql/executor";
import { operationRunner } from "../graphql/operation-runner";
import { SandboxBuildStopped, SandboxWorld } from "./sandbox-world";
import type { Services } from "./services";

/**
 * The sandbox world (it takes seconds to build: a database, a simulator and eight shipments tracked
 * twice), handed to the sandbox facade as its own core: the same persisted operations, run against
 * the world's services.
 *
 * With `QUAYSIDE_SANDBOX_WORLD=start` (the default of `npm start`) the build begins with the server,
 * never on a client's request, and until it is ready a sandbox request is answered at once with
 * `building` (the facade's 503 with Retry-After): a Postman run's first request no longer waits tens
 * of seconds. With `first-request` (test servers on an in-memory database) the first sandbox request
 * builds it and waits. A failed build is started again rather than remembered.
 */
export function sandboxOnDemand(input: {
  live: Services;
  executor: OperationExecutor;
  /**
   * At start, the build waits for this (day one's sampling: both are arithmetic on the one thread, and
   * the board is what a newcomer looks at first). Sandbox requests meanwhile answer `building`.
   */
  after?: Promise<unknown>;
}): {
  world(): Promise<SandboxWorldAccess | "building">;
  close(): Promise<void>;
} {
  const { live, executor } = input;
  let built: Promise<{ world: SandboxWorld; access: SandboxWorldAccess }> | undefined;
  let ready: SandboxWorldAccess | undefined;
  // Aborted by close: a build under way stops at its next step instead of holding the server's stop.
  const stopping = new AbortController();
  const build = () => {
    const started = performance.now();
    built = SandboxWorld.create({
      config: live.config,
      logger: live.logger,
      sampleSender: live.webhooks,
      stop: stopping.signal,
    }).then((world) => {
      const access: SandboxWorldAccess = {
        run: operationRunner(executor, world.services, "v1"),
        principal: world.principal,
        exclusive: (fn) => world.run(fn),
        asksRateLimit: (reference) => reservedReference(reference) === "rateLimited",
      };
      ready = access;
      live.logger.info({ ms: Math.round(performance.now() - started) }, "Sandbox world built");
      return { world, access };
    });
    built.catch((error: unknown) => {
      built = undefined;
      if (error instanceof SandboxBuildStopped) {
        live.logger.info("Building the sandbox world stopped with the server");
        return;
      }
      live.logger.error(
        { err: error },
        "Building the sandbox world failed; the next sandbox request starts again",
      );
    });
    return built;
  };
  const atStart = live.config.sandboxWorld === "start";
  let gateOpen = false;
  let closed = false;
  if (atStart) {
    void (input.after ?? Promise.resolve()).finally(() => {
      gateOpen = true;
      if (!closed && !built) build();
    });
  }
  return {
    async world() {
      if (ready) return ready;
      if (atStart) {
        if (gateOpen && !built) build();
        return "building";
      }
      return (await (built ?? build())).access;
    },
    async close() {
      closed = true;
      stopping.abort();
      const b = await built?.catch(() => undefined);
      await b?.world.close();
    },
  };
}
