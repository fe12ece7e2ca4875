import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  type AnswerStore,
  changeKeyOf,
  entitiesOf,
  entity,
  keysOfAnswer,
  memoryStore,
  redisStore,
} from "../../src/graphql/answer-cache";
import type { AnswerChange } from "../../src/lib/answer-changes";

/**
 * The answer cache's record of recent invalidations (src/graphql/answer-cache.ts): a miss keeps its
 * answer only if no invalidation since it began touched a key the answer is indexed under, and keeps
 * nothing when the record no longer reaches back that far. The same on this process's store and on
 * Redis, where several processes record into one.
 */
const redisUrl = inject("redisUrl");
const connections: Redis[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
});

/** A process's connection to the shared Redis, and a record of changes of this test's own. */
function processOnRedis(prefix: string): AnswerStore {
  const redis = new Redis(redisUrl);
  connections.push(redis);
  return redisStore(redis, prefix);
}

/** What `AnswerCache.invalidate` records for `change`. */
const record = (store: AnswerStore, change: AnswerChange) =>
  store.recordChange(entitiesOf(change).map(changeKeyOf));

/** An answer about shipment s1 of organisation o1, tagged as `AnswerCache` tags it. */
const answerAboutS1 = keysOfAnswer([
  entity("Shipment", "s1"),
  entity("TrackingDocument", "d1"),
  entity("PortCongestion", "NLRTM"),
  entity("Organization", "o1"),
  entity("All", "answers"),
]);

const stores: { name: string; make: () => [AnswerStore, AnswerStore] | null }[] = [
  {
    name: "in memory",
    make: () => {
      const store = memoryStore();
      return [store, store];
    },
  },
  {
    name: "in Redis, two processes",
    make: () => {
      if (!redisUrl) return null;
      const prefix = `quayside:test-answer-store:${Math.random().toString(36).slice(2)}:`;
      return [processOnRedis(prefix), processOnRedis(prefix)];
    },
  },
];

for (const { name, make } of stores) {
  describe.skipIf(!make())(`the record of invalidations (${name})`, () => {
    it("tells a miss whether a write since it began touched what its answer holds", async () => {
      const [reader, writer] = make()!;
      const since = await reader.sequence();
      await record(writer, { shipments: [{ id: "s2", organizationId: "o1" }] });
      await record(writer, { organizations: ["o2"] });
      await record(writer, { documents: ["d2"] });
      expect(await reader.changedSince(since, answerAboutS1)).toBe(false);

      await record(writer, { documents: ["d1"] });
      expect(await reader.changedSince(since, answerAboutS1)).toBe(true);
      // A miss that began after that write reads what it wrote: nothing since.
      expect(await reader.changedSince(await reader.sequence(), answerAboutS1)).toBe(false);
    });

    it("counts a type-wide change, an organisation's and everything's", async () => {
      const [reader, writer] = make()!;
      for (const change of [
        { types: ["PortCongestion"] },
        { organizations: ["o1"] },
        { everything: true },
      ] satisfies AnswerChange[]) {
        const since = await reader.sequence();
        await record(writer, change);
        expect(await reader.changedSince(since, answerAboutS1), JSON.stringify(change)).toBe(true);
      }
    });

    it("keeps nothing once the record no longer reaches back to the miss's start", async () => {
      const [reader, writer] = make()!;
      const since = await reader.sequence();
      // Unrelated writes only, more than the record holds.
      for (let n = 0; n < 1100; n++) await record(writer, { documents: [`other-${n}`] });
      expect(await reader.changedSince(since, answerAboutS1)).toBe(true);
      // A recent start is still answered from the record.
      const recent = await reader.sequence();
      await record(writer, { documents: ["other"] });
      expect(await reader.changedSince(recent, answerAboutS1)).toBe(false);
    }, 60_000);

    it("records a worker's batch too large to note key by key as a change of everything", async () => {
      const [reader, writer] = make()!;
      const since = await reader.sequence();
      const batch = Array.from({ length: 1200 }, (_, n) => ({ id: `batch-${n}`, organizationId: "o2" }));
      await record(writer, { shipments: batch });
      expect(await reader.changedSince(since, answerAboutS1)).toBe(true);
      // While one of a size worth noting counts only for what it names.
      const next = await reader.sequence();
      await record(writer, { shipments: batch.slice(0, 400) });
      expect(await reader.changedSince(next, answerAboutS1)).toBe(false);
    });

    it("after a flush, keeps nothing built before it", async () => {
      const [reader, writer] = make()!;
      const since = await reader.sequence();
      await writer.flush();
      expect(await reader.changedSince(since, answerAboutS1)).toBe(true);
    });
  });
}

describe.skipIf(!redisUrl)("the record of invalidations in Redis", () => {
  it("goes on after the last change recorded when its sequence key is lost (evicted, deleted)", async () => {
    const prefix = `quayside:test-answer-store:${Math.random().toString(36).slice(2)}:`;
    const store = processOnRedis(prefix);
    await record(store, { documents: ["d9"] });
    await record(store, { documents: ["d9"] });
    const since = await store.sequence();
    await connections.at(-1)!.del(`${prefix}sequence`);
    await record(store, { documents: ["d1"] });
    expect(await store.sequence()).toBe(since + 1);
    expect(await store.changedSince(since, answerAboutS1)).toBe(true);
  });
});
