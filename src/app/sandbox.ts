import type { SandboxWorldAccess } from "../../facades/v1/sandbox";
import { reservedReference } from "../domain/sandbox/reserved-references";
import type { OperationExecutor } from "../graphql/executor";
import { operationRunner } from "../graphql/operation-runner";
import { SandboxWorld } from "./sandbox-world";
import type { Services } from "./services";

/**
 * The sandbox world, built on the first sandbox request (it takes seconds: a database, a simulator
 * and eight shipments tracked twice) and handed to the sandbox facade as its own core: the same
 * persisted operations, run against the world's services. A failed build is retried by the next
 * request rather than remembered.
 */
export function sandboxOnDemand(input: { live: Services; executor: OperationExecutor }): {
  world(): Promise<SandboxWorldAccess>;
  close(): Promise<void>;
} {
  const { live, executor } = input;
  let built: Promise<{ world: SandboxWorld; access: SandboxWorldAccess }> | undefined;
  return {
    world() {
      built ??= SandboxWorld.create({
        config: live.config,
        logger: live.logger,
        sampleSender: live.webhooks,
      }).then((world) => ({
        world,
        access: {
          run: operationRunner(executor, world.services, "v1"),
          principal: world.principal,
          exclusive: (fn) => world.run(fn),
          asksRateLimit: (reference) => reservedReference(reference) === "rateLimited",
        },
      }));
      built.catch(() => {
        built = undefined;
      });
      return built.then((b) => b.access);
    },
    async close() {
      const b = await built?.catch(() => undefined);
      await b?.world.close();
    },
  };
}
