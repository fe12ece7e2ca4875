import { describe, expect, it } from "vitest";
import { CarriersDocument } from "../../facades/generated/operations";
import { OPERATION_FOLDERS } from "../../src/app/operation-folders";
import { AnswerCache, KEPT_OPERATIONS } from "../../src/graphql/answer-cache";
import type { GraphQLContext } from "../../src/graphql/context";
import { OperationExecutor } from "../../src/graphql/executor";
import { schema } from "../../src/graphql/schema";
import { systemClock } from "../../src/lib/clock";

/**
 * The answer cache executes each kept operation's document with the response cache's added fields
 * (`__typename`, `id`): that copy is compiled when the live executor is built, not by the first
 * request of each operation (graphql-jit takes milliseconds a document, paid by a caller otherwise).
 */
describe("answer cache at start-up", () => {
  it("compiles every kept operation before any request, and a first request compiles nothing more", async () => {
    const executor = await OperationExecutor.load(schema, OPERATION_FOLDERS, "compiled");
    const answers = new AnswerCache({ schema, clock: systemClock, compiled: true });

    const live = await executor.withAnswers(answers);
    const atStart = answers.compiled();
    expect([...atStart.operations].sort()).toEqual([...KEPT_OPERATIONS].sort());
    expect(atStart.compilations).toBe(KEPT_OPERATIONS.size);

    // A caller with no services: the resolver fails, but the document it runs is the one compiled.
    const context = {
      requestId: "r1",
      principal: null,
      services: {},
      surface: "v1",
    } as unknown as GraphQLContext;
    await live.run(CarriersDocument, {}, context).catch(() => undefined);
    expect(answers.compiled().compilations).toBe(KEPT_OPERATIONS.size);
  });
});
