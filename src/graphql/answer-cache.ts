import { envelop, useEngine, useSchema } from "@envelop/core";
import { type Cache, createInMemoryCache, useResponseCache } from "@envelop/response-cache";
import { createRedisCache } from "@envelop/response-cache-redis";
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLSchema,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { Redis } from "ioredis";
import type { Principal } from "../domain/accounts/principal";
import type { AnswerChange } from "../lib/answer-changes";
import { currentAnswerScope, inAnswerScope } from "../lib/answer-scope";
import type { Clock } from "../lib/clock";
import type { GraphQLContext } from "./context";

/**
 * Answers of the facades' persisted read operations, kept and served again until something that
 * feeds them changes (docs/decisions/read-path.md, "The answer cache"). Built on
 * @envelop/response-cache: it adds `__typename` and `id` to every selection, notes the entities an
 * answer holds (Shipment:<id>, TrackingDocument:<id>, ...), and drops every answer holding an entity
 * when it is invalidated. With Redis (`REDIS_URL`) the answers and the entity index live there
 * (@envelop/response-cache-redis), so a write in any process drops them for all.
 *
 * Only the operations listed here are kept: each was read for what it depends on. Mutations, and
 * operations that record something when they run, always execute: compat's tracking answers from a
 * kept `CompatStoredTrack` and records the call and the lookup with the `CompatServed` mutation.
 */
export const KEPT_OPERATIONS: ReadonlySet<string> = new Set([
  "Carriers",
  "Sealines",
  "ShipmentRead",
  "ShipmentsPage",
  "ShipmentsDelta",
  "McpShipmentStatus",
  "CompatSealine",
  "CompatStoredTrack",
]);

/** Operations whose answer is a page of an organisation's shipments: any shipment write may move it. */
const PAGE_OPERATIONS: ReadonlySet<string> = new Set(["ShipmentsPage", "ShipmentsDelta"]);

/** Every key and entity of ours in a shared Redis starts so (entity names must hold a colon, below). */
const PREFIX = "quayside:answers:";

/** Where a kept answer carries the instant it is good until (never shown: facades read `data`). */
const KEPT_UNTIL = "quaysideKeptUntil";

/** At most this long, whatever the answer: a bound on what a store holds, not on freshness. */
const LONGEST_KEPT_MS = 60 * 60 * 1000;

/** Answers kept in this process's memory when there is no Redis and no setting (least recently used out). */
export const ANSWERS_IN_MEMORY = 10_000;

/**
 * Invalidations remembered for misses in flight (in memory; in Redis a stream trimmed to about as
 * many): a miss that began further back than this keeps nothing. Thousands of writes during one miss
 * (milliseconds) is far beyond any load seen.
 */
const RECENT_CHANGES = 1024;

/**
 * An invalidation naming more keys than this (a worker's batch) is recorded as a change of `All`:
 * misses in flight then keep nothing, and the record stays small (in Redis, at most about
 * RECENT_CHANGES of these).
 */
const LARGEST_CHANGE_RECORDED = 1000;

/** The keys an invalidation is recorded with: its own, once each, or `All` when there are too many. */
function recordedKeys(keys: readonly string[]): readonly string[] {
  const distinct = [...new Set(keys)];
  return distinct.length > LARGEST_CHANGE_RECORDED ? [changeKeyOf(entity("All", "answers"))] : distinct;
}

/**
 * Where answers are kept, and the record of recent invalidations that a miss checks before keeping
 * its answer: each invalidation takes the next sequence number and notes the entity keys it dropped
 * (as the cache indexes them: `changeKeyOf`). A miss notes the sequence before it executes and keeps
 * its answer only if no invalidation since touched a key of the answer.
 */
export interface AnswerStore {
  cache: Cache;
  /** The sequence number of the latest invalidation recorded. */
  sequence(): Promise<number>;
  /** Records an invalidation of `keys` under the next sequence number, before the answers are dropped. */
  recordChange(keys: readonly string[]): Promise<void>;
  /**
   * Whether an invalidation recorded after `since` touched one of `keys`; also true when the record
   * no longer reaches back to `since` (not knowing is not keeping).
   */
  changedSince(since: number, keys: ReadonlySet<string>): Promise<boolean>;
  /** Drops every answer (after an invalidation could not reach the store). */
  flush(): Promise<void>;
}

export function memoryStore(entries = ANSWERS_IN_MEMORY): AnswerStore {
  let sequence = 0;
  // The keys of invalidation n are at n % RECENT_CHANGES while n is among the latest RECENT_CHANGES.
  const recent: (readonly string[])[] = new Array(RECENT_CHANGES);
  let cache = createInMemoryCache({ max: entries });
  const recordChange = async (keys: readonly string[]) => {
    sequence++;
    recent[sequence % RECENT_CHANGES] = recordedKeys(keys);
  };
  return {
    get cache() {
      return cache;
    },
    sequence: async () => sequence,
    recordChange,
    changedSince: async (since, keys) => {
      if (since > sequence || sequence - since > RECENT_CHANGES) return true;
      for (let n = since + 1; n <= sequence; n++) {
        if (recent[n % RECENT_CHANGES]!.some((key) => keys.has(key))) return true;
      }
      return false;
    },
    flush: async () => {
      // Every answer holds All:answers: a miss in flight keeps nothing built before the flush.
      await recordChange([changeKeyOf(entity("All", "answers"))]);
      cache = createInMemoryCache({ max: entries });
    },
  };
}

/**
 * Takes the next sequence number and appends the invalidation's keys to the stream under it, in one
 * step: several processes record at once, and the stream's ids must follow the sequence. Should the
 * sequence key be gone while the stream is not, it resumes after the stream's last entry.
 */
const RECORD_CHANGE = `
local n = redis.call('INCR', KEYS[1])
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
if last[1] then
  local lastN = tonumber(string.match(last[1][1], '^(%d+)'))
  if lastN >= n then
    n = lastN + 1
    redis.call('SET', KEYS[1], n)
  end
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], n .. '-0', 'k', ARGV[1])
return n
`;

/** `prefix`: where the record of changes lives (a test's own, so that it may trim it at will). */
export function redisStore(redis: Redis, prefix = PREFIX): AnswerStore {
  const cache = createRedisCache({ redis: redis as never });
  const sequenceKey = `${prefix}sequence`;
  const changesKey = `${prefix}changes`;
  const recordChange = async (keys: readonly string[]) => {
    await redis.eval(
      RECORD_CHANGE,
      2,
      sequenceKey,
      changesKey,
      JSON.stringify(recordedKeys(keys)),
      RECENT_CHANGES,
    );
  };
  return {
    cache,
    sequence: async () => Number((await redis.get(sequenceKey)) ?? 0),
    recordChange,
    changedSince: async (since, keys) => {
      // One snapshot: the sequence and every change after `since`, read together.
      const replies = await redis
        .multi()
        .get(sequenceKey)
        .xrange(changesKey, `${since + 1}-0`, "+", "COUNT", RECENT_CHANGES)
        .exec();
      const [sequenceReply, changesReply] = replies ?? [];
      if (!sequenceReply || !changesReply || sequenceReply[0] || changesReply[0]) {
        throw sequenceReply?.[0] ?? changesReply?.[0] ?? new Error("Redis transaction discarded");
      }
      const sequence = Number(sequenceReply[1] ?? 0);
      if (sequence === since) return false;
      const changes = changesReply[1] as [string, string[]][];
      // Trimmed (or lost) past `since`, or more than one read returns: not known, so changed.
      if (sequence < since || changes.length !== sequence - since || changes[0]![0] !== `${since + 1}-0`) {
        return true;
      }
      return changes.some(([, fields]) =>
        (JSON.parse(fields[1] ?? "[]") as string[]).some((key) => keys.has(key)),
      );
    },
    flush: async () => {
      await recordChange([changeKeyOf(entity("All", "answers"))]);
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
        const answers = keys.filter((k) => k !== sequenceKey && k !== changesKey);
        if (answers.length > 0) await redis.unlink(...answers);
        cursor = next;
      } while (cursor !== "0");
    },
  };
}

/** Entity names as kept in the store: prefixed, so none collides with another user of the Redis. */
export const entity = (typename: string, id?: string | number) => ({
  typename: `${PREFIX}${typename}`,
  id,
});

/**
 * The key an invalidation of `e` drops answers by, as both stores index them (`Type:id`, or `Type` for
 * every answer holding one of the type).
 */
export function changeKeyOf(e: { typename: string; id?: string | number | null }): string {
  return e.id == null ? e.typename : `${e.typename}:${e.id}`;
}

/** Every key an answer tagged with `tags` is indexed under: the invalidations that would drop it. */
export function keysOfAnswer(
  tags: readonly { typename: string; id?: string | number | null }[],
): Set<string> {
  const keys = new Set<string>();
  for (const tag of tags) {
    keys.add(tag.typename);
    if (tag.id != null) keys.add(`${tag.typename}:${tag.id}`);
  }
  return keys;
}

/** What an invalidation drops, as the entities `AnswerRun.set` tags answers with. */
export function entitiesOf(change: AnswerChange): { typename: string; id?: string | number }[] {
  const out: { typename: string; id?: string | number }[] = [];
  for (const s of change.shipments ?? []) {
    out.push(entity("Shipment", s.id), entity("ShipmentPage", s.organizationId));
  }
  for (const id of change.documents ?? []) out.push(entity("TrackingDocument", id));
  for (const key of change.subscriptions ?? []) out.push(entity("CarrierSubscription", key));
  for (const box of change.containers ?? []) out.push(entity("TerminalBox", box));
  for (const id of change.organizations ?? []) out.push(entity("Organization", id));
  for (const typename of change.types ?? []) out.push(entity(typename));
  if (change.everything) out.push(entity("All", "answers"));
  return out;
}

/**
 * Who sees what: answers are kept per organisation and everything about the caller that can change
 * what an operation answers (the plan and feature switches gate fields, the role and a view-only key
 * gate actions offered). The plan is part of the key rather than only invalidated, so a process
 * whose key cache still holds the old plan for a few seconds keeps its answer under the old plan's
 * key, where no caller with the new plan looks.
 */
export function viewerOf(principal: Principal | null): string {
  if (!principal) return "anonymous";
  return `${organizationPartOf(principal.organization)}|${principal.user.role}|${principal.apiKey?.viewOnly ? "view" : "full"}`;
}

/**
 * The organisation's part of the viewer, per organisation row: the key cache hands out the same row
 * for its seconds, so the switches are not serialised again on every request. A changed plan or
 * switch comes as a new row (read again from the database), hence a new part.
 */
const organizationParts = new WeakMap<object, string>();

function organizationPartOf(org: Principal["organization"]): string {
  let part = organizationParts.get(org);
  if (part === undefined) {
    part = [org.id, org.plan, JSON.stringify(org.featureSwitches ?? {})].join("|");
    organizationParts.set(org, part);
  }
  return part;
}

/** What one execution through the cache needs to know, kept on its context. */
interface AnswerRun {
  operation: string;
  organizationId: string | null;
  /**
   * The store's invalidation sequence read after a miss, before executing: an invalidation since that
   * touches what the answer holds means do not keep it.
   */
  sequenceAtMiss?: number;
  /** The store failed during this run: execute, keep nothing. */
  failed?: boolean;
}

const runs = new WeakMap<object, AnswerRun>();

/** Contexts of `AnswerCache.prepare`: the engine compiles their document and executes nothing. */
const preparing = new WeakSet<object>();

export interface AnswerCacheOptions {
  schema: GraphQLSchema;
  /** The services' time, unwatched: the cache's own reads are not part of an answer. */
  clock: Clock;
  /** Shared by every process when set; this process's memory otherwise. */
  redis?: Redis;
  /** Answers kept in this process's memory (without Redis); ANSWERS_IN_MEMORY when not given. */
  entries?: number;
  /** graphql-jit for the documents the cache executes (as the executor does), or graphql-js. */
  compiled: boolean;
  onStoreError?: (error: unknown, during: string) => void;
  /** Hits and misses (quayside_cache_lookups_total{cache="answer"}). */
  lookups?: { hit(): void; miss(): void };
}

export class AnswerCache {
  private readonly store: AnswerStore;
  private readonly getEnveloped: ReturnType<typeof envelop>;
  /** An invalidation did not reach the store: nothing is read from it until all is flushed. */
  private flushOwed = false;

  /** Operations whose document with the plugin's added fields was compiled (by `prepare` or a first run). */
  private readonly compiledOperations = new Set<string>();
  /** graphql-jit compilations made (one per operation when `prepare` ran: a first run compiles none). */
  private compilationCount = 0;

  constructor(private readonly options: AnswerCacheOptions) {
    this.store = options.redis ? redisStore(options.redis) : memoryStore(options.entries);
    const compiledByDocument = new WeakMap<DocumentNode, CompiledQuery | null>();
    // The response cache hands execution a copy of the persisted document with `__typename` and `id`
    // added to each selection (one copy per document, memoised by the plugin): compiled once too.
    const run = (args: ExecutionArgs) => {
      if (!options.compiled && preparing.has(args.contextValue as object)) return { data: null };
      if (!options.compiled) return execute(args);
      let compiled = compiledByDocument.get(args.document);
      if (compiled === undefined) {
        try {
          const made = compileQuery(args.schema, args.document, args.operationName ?? undefined, {
            disablingCapturingStackErrors: true,
          });
          compiled = isCompiledQuery(made) ? made : null;
        } catch {
          compiled = null;
        }
        compiledByDocument.set(args.document, compiled);
        this.compilationCount++;
        if (compiled && args.operationName) this.compiledOperations.add(args.operationName);
      }
      // `prepare`: the document is compiled, nothing runs.
      if (preparing.has(args.contextValue as object)) return { data: null };
      return compiled
        ? compiled.query(args.rootValue, args.contextValue, args.variableValues)
        : execute(args);
    };
    this.getEnveloped = envelop({
      plugins: [
        useEngine({ execute: run as never }),
        useSchema(options.schema),
        useResponseCache({
          session: (context) => viewerOf((context as GraphQLContext).principal),
          cache: (context) => this.cacheFor(context as GraphQLContext),
          buildResponseCacheKey: ({ operationName, variableValues, sessionId }) =>
            answerKey(operationName ?? "", sessionId ?? "", variableValues),
          getDocumentString: (args) => args.operationName ?? "",
          // Coded errors (not found, plan required) are answered fresh each time.
          shouldCacheResult: ({ result }) => !result.errors || result.errors.length === 0,
          ttl: LONGEST_KEPT_MS,
          onTtl: ({ ttl }) => this.keptFor(ttl),
          // Our documents name their mutations' results; they are never in KEPT_OPERATIONS anyway.
          invalidateViaMutation: false,
          includeExtensionMetadata: false,
        }) as never,
      ],
    });
  }

  /**
   * Compiles the operations as the cache will execute them (the persisted document with the plugin's
   * `__typename` and `id` added), at start-up rather than on each one's first request: graphql-jit
   * takes milliseconds per document, which the first caller of each operation would otherwise wait.
   * Goes through the plugin itself, so the document compiled is the very copy it memoises; nothing
   * executes and nothing is kept (the context is no caller's: no lookup, no store).
   */
  async prepare(operations: Iterable<{ name: string; document: DocumentNode }>): Promise<void> {
    for (const operation of operations) {
      const context = {} as GraphQLContext;
      preparing.add(context);
      const { execute: enveloped } = this.getEnveloped(context);
      await enveloped({
        schema: this.options.schema,
        document: operation.document,
        variableValues: {},
        contextValue: context,
        operationName: operation.name,
      });
    }
  }

  /** The operations compiled so far (by `prepare` or a first run), and how many compilations that took. */
  compiled(): { operations: ReadonlySet<string>; compilations: number } {
    return { operations: this.compiledOperations, compilations: this.compilationCount };
  }

  /**
   * Executes a persisted query through the cache: a kept answer when there is one for this viewer and
   * these variables, else the operation, whose answer is then kept unless something changed meanwhile.
   */
  async run(
    operation: { name: string; document: DocumentNode },
    variableValues: Record<string, unknown>,
    context: GraphQLContext,
  ): Promise<ExecutionResult> {
    if (this.flushOwed && !(await this.tryFlush())) {
      // Could not drop what may be stale: execute without the cache until the store is back.
      return this.executeUncached(operation, variableValues, context);
    }
    // A kept answer is served without the envelop orchestration around the plugin (its hooks, the
    // per-request cache view, the answer scope): the same key and the same checks as its lookup,
    // a fifth of the in-memory /carriers route's CPU in a profile. A miss goes through the plugin,
    // which looks again and keeps what it builds.
    const kept = await this.keptAnswer(
      answerKey(operation.name, viewerOf(context.principal), variableValues),
    );
    if (kept) return kept;
    runs.set(context, {
      operation: operation.name,
      organizationId: context.principal?.organization.id ?? null,
    });
    const { execute: enveloped } = this.getEnveloped(context);
    const { result } = await inAnswerScope(
      async () =>
        (await enveloped({
          schema: this.options.schema,
          document: operation.document,
          variableValues,
          contextValue: context,
          operationName: operation.name,
        })) as ExecutionResult,
    );
    return result;
  }

  /** The answer kept under `key` and still good on the service's clock; undefined otherwise (counted by the plugin's lookup). */
  private async keptAnswer(key: string): Promise<ExecutionResult | undefined> {
    try {
      const found = (await this.store.cache.get(key)) as ExecutionResult | undefined | null;
      if (!found || !isGoodNow(found, this.options.clock)) return undefined;
      this.options.lookups?.hit();
      return found;
    } catch {
      // The plugin's own lookup reports the store's failure and executes.
      return undefined;
    }
  }

  /** Drops the answers a committed write touched, in every process sharing the store. */
  async invalidate(change: AnswerChange): Promise<void> {
    const entities = entitiesOf(change);
    if (entities.length === 0) return;
    try {
      // Recorded first: a miss in flight that checks after this sees it, one that stored before it
      // is dropped below with the rest.
      await this.store.recordChange(entities.map(changeKeyOf));
      await this.store.cache.invalidate(entities);
    } catch (error) {
      this.flushOwed = true;
      this.options.onStoreError?.(error, "invalidate");
    }
  }

  private async tryFlush(): Promise<boolean> {
    try {
      await this.store.flush();
      this.flushOwed = false;
      return true;
    } catch {
      return false;
    }
  }

  private executeUncached(
    operation: { name: string; document: DocumentNode },
    variableValues: Record<string, unknown>,
    context: GraphQLContext,
  ): Promise<ExecutionResult> {
    return Promise.resolve(
      execute({
        schema: this.options.schema,
        document: operation.document,
        variableValues,
        contextValue: context,
        operationName: operation.name,
      }),
    );
  }

  /**
   * How long an answer just built may be kept: until the earliest instant a clock-dependent fact in
   * it changes; not at all when it read the clock without saying until when (src/lib/answer-scope.ts).
   */
  private keptFor(ttl: number): number {
    const scope = currentAnswerScope();
    if (!scope || scope.notKept || scope.clockReads > scope.covered) return 0;
    if (scope.validUntil === Number.POSITIVE_INFINITY) return ttl;
    const left = scope.validUntil - this.options.clock.now().getTime();
    return left > 0 ? Math.min(ttl, left) : 0;
  }

  /** The store as one execution sees it: entity tags added, a check of recent invalidations before keeping. */
  private cacheFor(context: GraphQLContext): Cache {
    const run = runs.get(context);
    const store = this.store;
    const report = this.options.onStoreError;
    const lookups = this.options.lookups;
    const clock = this.options.clock;
    return {
      get: async (key) => {
        if (!run) return undefined;
        try {
          const found = (await store.cache.get(key)) as ExecutionResult | undefined | null;
          // The store's own expiry runs on its clock; the boundary is on ours (a test's, the sandbox's).
          if (found && isGoodNow(found, clock)) {
            lookups?.hit();
            return found;
          }
          lookups?.miss();
          run.sequenceAtMiss = await store.sequence();
        } catch (error) {
          run.failed = true;
          report?.(error, "get");
        }
        return undefined;
      },
      set: async (key, result, collected, ttl) => {
        const since = run?.sequenceAtMiss;
        if (!run || run.failed || since === undefined) return;
        const tags = [...collected].map((e) => entity(e.typename, e.id ?? undefined));
        tags.push(entity("All", "answers"));
        for (const read of currentAnswerScope()?.reads ?? []) {
          const colon = read.indexOf(":");
          tags.push(entity(read.slice(0, colon), read.slice(colon + 1)));
        }
        if (run.organizationId) {
          tags.push(entity("Organization", run.organizationId));
          if (PAGE_OPERATIONS.has(run.operation)) tags.push(entity("ShipmentPage", run.organizationId));
        }
        // What would drop this answer once kept; a write elsewhere meanwhile does not stop keeping it.
        const keys = keysOfAnswer(tags);
        // Its own tag, to take it back if a write lands while it is being stored.
        const own = entity("Answer", key);
        tags.push(own);
        try {
          // A write to something this answer holds committed while it was built: it may hold what
          // the write replaced.
          if (await store.changedSince(since, keys)) return;
          const keptUntil = clock.now().getTime() + ttl;
          await store.cache.set(
            key,
            { ...result, extensions: { ...result.extensions, [KEPT_UNTIL]: keptUntil } },
            tags,
            ttl,
          );
          if (await store.changedSince(since, keys)) await store.cache.invalidate([own]);
        } catch (error) {
          report?.(error, "set");
        }
      },
      invalidate: (entities) => store.cache.invalidate(entities),
    };
  }
}

/** Where an answer is kept: the operation, the viewer (`viewerOf`) and the variables. */
function answerKey(
  operationName: string,
  viewer: string,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): string {
  return `${PREFIX}answer:${operationName}|${viewer}|${stableJson(variables ?? {})}`;
}

/** The store's own expiry runs on its clock; the boundary is on ours (a test's, the sandbox's). */
function isGoodNow(found: ExecutionResult, clock: Clock): boolean {
  const keptUntil = found.extensions?.[KEPT_UNTIL];
  return typeof keptUntil !== "number" || keptUntil > clock.now().getTime();
}

/** JSON with object keys sorted, so the same variables make the same key. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
    .join(",")}}`;
}
