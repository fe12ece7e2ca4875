import type { ApiKey, Organization, PrismaClient, User } from "../../generated/prisma/client";
import type { BillingCycle, BillingState, PlanCode, UserRole } from "../../generated/prisma/enums";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { CacheLookups } from "../../observability/metrics";
import { hashPassword, passwordProblem } from "../people/passwords";
import { displayPrefix, generateRawKey, hashKey, looksLikeKey } from "./api-key";
import { KeyCache, type KeyRow } from "./key-cache";
import { CUSTOM_RATE_BOUNDS, FEATURES, type Feature, ORGANIZATION_BOUNDS } from "./plans";
import { type Principal, principalOf } from "./principal";

export type KeyRefusal = "missing_key" | "invalid_key" | "revoked_key" | "expired_key" | "developer_mode_off";

export type Authentication =
  | { ok: true; principal: Principal }
  | { ok: false; refusal: Exclude<KeyRefusal, "developer_mode_off"> }
  /** The key is good; its organisation has developer mode off. */
  | { ok: false; refusal: "developer_mode_off"; principal: Principal };

export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The raw key: returned once, never stored. */
  rawKey: string;
}

export class AccountError extends Error {
  constructor(
    readonly code: "not_found" | "conflict" | "invalid_input" | "limit_reached",
    message: string,
    /** For `limit_reached`: which bound was met, and its number. */
    readonly bound?: { scope: "user" | "organization"; limit: number },
  ) {
    super(message);
  }
}

/** Writing `last_used_at` on every request would turn every read into a write; minute precision is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AccountsOptions {
  /** How long an authenticated key's row is reused without asking the database; 0 (the default) never. */
  keyCacheSeconds?: number;
  /** Most keys held at once; the oldest stored is dropped first. */
  keyCacheMaxEntries?: number;
  /** Counts the key cache's hits and misses (the metrics). */
  cacheLookups?: CacheLookups;
}

/** Changes to an organisation that its keys must see on their next request. */
export interface OrganizationChanges {
  plan?: PlanCode;
  billingCycle?: BillingCycle;
  billingState?: BillingState;
  overdueDays?: number;
  graceDays?: number;
  developerMode?: boolean;
  /** Whether the organisation runs this deployment (docs/decisions/disruptions.md, "Operators"). */
  operator?: boolean;
  /** A custom plan's negotiated per-key minute window; null: the plan's own (see `planOf`). */
  ratePerMinute?: number | null;
  /** Per-feature switches (`false`: switched off); a feature absent from the object is on. */
  featureSwitches?: Record<string, boolean>;
}

export class AccountsService {
  private readonly keyCache: KeyCache | null;
  private readonly cacheLookups: CacheLookups | undefined;

  /**
   * The server passes `keyCacheSeconds` from QUAYSIDE_KEY_CACHE_SECONDS; short-lived users (the CLI, the
   * benchmark's bare baseline) leave it out and ask the database every time.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    options: AccountsOptions = {},
  ) {
    this.cacheLookups = options.cacheLookups;
    const seconds = options.keyCacheSeconds ?? 0;
    this.keyCache =
      seconds > 0
        ? new KeyCache(clock, seconds * 1000, Math.max(1, options.keyCacheMaxEntries ?? 10_000))
        : null;
  }

  /** Keys whose rows this process holds (0 when the cache is off). */
  get cachedKeys(): number {
    return this.keyCache?.size ?? 0;
  }

  async createOrganization(input: {
    name: string;
    plan?: PlanCode;
    billingCycle?: BillingCycle;
    developerMode?: boolean;
    operator?: boolean;
    features?: Partial<Record<Feature, boolean>>;
    /** A custom plan's negotiated per-key minute window. */
    ratePerMinute?: number | null;
  }): Promise<Organization> {
    const name = input.name.trim();
    if (!name) throw new AccountError("invalid_input", "An organisation needs a name.");
    const plan = input.plan ?? "free";
    return this.prisma.organization.create({
      data: {
        name,
        plan,
        ratePerMinute: negotiatedRate(plan, input.ratePerMinute ?? null),
        billingCycle: input.billingCycle ?? "monthly",
        developerMode: input.developerMode ?? false,
        operator: input.operator ?? false,
        featureSwitches: Object.fromEntries(FEATURES.map((f) => [f, input.features?.[f] ?? true])),
        cycleStartedAt: this.clock.now(),
      },
    });
  }

  listOrganizations(): Promise<Organization[]> {
    return this.prisma.organization.findMany({ orderBy: { createdAt: "asc" } });
  }

  async findOrganization(idOrName: string): Promise<Organization | null> {
    return this.prisma.organization.findFirst({ where: { OR: [{ id: idOrName }, { name: idOrName }] } });
  }

  async createUser(input: {
    organizationId: string;
    email: string;
    name?: string;
    role?: UserRole;
    /** A dashboard password (docs/decisions/dashboard.md); without one the user cannot sign in. */
    password?: string;
  }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (input.password !== undefined) {
      const problem = passwordProblem(input.password);
      if (problem) throw new AccountError("invalid_input", problem);
    }
    if (!/^[^@\s]+@[^@\s]+$/.test(email))
      throw new AccountError("invalid_input", `Not an e-mail address: ${email}`);
    const organization = await this.prisma.organization.findUnique({ where: { id: input.organizationId } });
    if (!organization) throw new AccountError("not_found", "No such organisation.");
    const existing = await this.prisma.user.findUnique({ where: { email } });
    if (existing) throw new AccountError("conflict", `A user with e-mail ${email} already exists.`);
    return this.prisma.user.create({
      data: {
        organizationId: organization.id,
        email,
        name: input.name?.trim() || email.split("@")[0]!,
        role: input.role ?? "member",
        passwordHash: input.password === undefined ? null : await hashPassword(input.password),
      },
    });
  }

  async findUser(idOrEmail: string): Promise<User | null> {
    return this.prisma.user.findFirst({
      where: { OR: [{ id: idOrEmail }, { email: idOrEmail.toLowerCase() }] },
    });
  }

  listUsers(organizationId: string): Promise<User[]> {
    return this.prisma.user.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });
  }

  /**
   * Creates a key for a user. `rawKey` lets the operator pin the demo key (QUAYSIDE_DEMO_KEY) so that
   * scripts know it in advance; otherwise a random key is generated. A user holds at most
   * `keysPerUser` live keys (neither revoked nor expired), an organisation `keysPerOrganization`.
   */
  async createApiKey(input: {
    userId: string;
    name?: string;
    viewOnly?: boolean;
    expiresAt?: Date | null;
    rawKey?: string;
  }): Promise<CreatedApiKey> {
    const user = await this.prisma.user.findUnique({ where: { id: input.userId } });
    if (!user) throw new AccountError("not_found", "No such user.");
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new AccountError("invalid_input", "A key's expiry must be in the future.");
    }
    const rawKey = input.rawKey ?? generateRawKey();
    if (!looksLikeKey(rawKey))
      throw new AccountError("invalid_input", "A key must be 16 to 200 URL-safe characters.");
    const keyHash = hashKey(rawKey);
    if (await this.prisma.apiKey.findUnique({ where: { keyHash } })) {
      throw new AccountError("conflict", "That key is already in use.");
    }
    const now = this.clock.now();
    // Counting and creating under one lock per organisation, so concurrent requests cannot together
    // pass a bound that each of them checked alone.
    const apiKey = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`api-keys:${user.organizationId}`}))`;
      const live = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
      const [ofUser, ofOrganization] = await Promise.all([
        tx.apiKey.count({ where: { userId: user.id, ...live } }),
        tx.apiKey.count({ where: { organizationId: user.organizationId, ...live } }),
      ]);
      if (ofUser >= ORGANIZATION_BOUNDS.keysPerUser) {
        throw new AccountError(
          "limit_reached",
          `This user already holds ${ORGANIZATION_BOUNDS.keysPerUser} live API keys, the most one user may hold. Revoke one that is no longer used, then create the new one.`,
          { scope: "user", limit: ORGANIZATION_BOUNDS.keysPerUser },
        );
      }
      if (ofOrganization >= ORGANIZATION_BOUNDS.keysPerOrganization) {
        throw new AccountError(
          "limit_reached",
          `The organisation already holds ${ORGANIZATION_BOUNDS.keysPerOrganization} live API keys, the most it may hold. Revoke one that is no longer used, then create the new one.`,
          { scope: "organization", limit: ORGANIZATION_BOUNDS.keysPerOrganization },
        );
      }
      const name = await this.freeKeyName(tx, user.organizationId, input.name?.trim() || null, live);
      return tx.apiKey.create({
        data: {
          organizationId: user.organizationId,
          userId: user.id,
          name,
          displayPrefix: displayPrefix(rawKey),
          keyHash,
          viewOnly: input.viewOnly ?? false,
          expiresAt: input.expiresAt ?? null,
          createdAt: now,
        },
      });
    });
    return { apiKey, rawKey };
  }

  /**
   * A key's name is how people tell keys apart on every list and in the revoke confirmation, so two
   * live keys of an organisation never share one (case and surrounding spaces ignored; a revoked or
   * expired key's name is free again). A chosen name already taken is refused; a key created without
   * a name is numbered ("API key 2").
   */
  private async freeKeyName(
    tx: Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0],
    organizationId: string,
    chosen: string | null,
    live: object,
  ): Promise<string> {
    const taken = async (name: string) =>
      (await tx.apiKey.count({
        where: { organizationId, name: { equals: name, mode: "insensitive" }, ...live },
      })) > 0;
    if (chosen) {
      if (await taken(chosen)) {
        throw new AccountError(
          "conflict",
          `A live key is already named "${chosen}". Choose another name, or revoke that key first.`,
        );
      }
      return chosen;
    }
    for (let n = 1; ; n++) {
      const name = n === 1 ? "API key" : `API key ${n}`;
      if (!(await taken(name))) return name;
    }
  }

  /** Revokes a key of the organisation; a key of another organisation is "not found". */
  async revokeApiKey(input: { keyId: string; organizationId?: string }): Promise<ApiKey> {
    const key = await this.prisma.apiKey.findUnique({ where: { id: input.keyId } });
    if (!key || (input.organizationId && key.organizationId !== input.organizationId)) {
      throw new AccountError("not_found", "No such API key.");
    }
    try {
      // Already revoked (perhaps by another process): this process may still hold it as good.
      if (key.revokedAt) return key;
      return await this.prisma.apiKey.update({
        where: { id: key.id },
        data: { revokedAt: this.clock.now() },
      });
    } finally {
      this.keyCache?.forgetKey(key.keyHash);
    }
  }

  /** Keys revoked elsewhere in this process (a removed teammate's): their next request is refused. */
  forgetKeys(keyHashes: readonly string[]): void {
    for (const keyHash of keyHashes) this.keyCache?.forgetKey(keyHash);
  }

  async hasKey(rawKey: string): Promise<boolean> {
    return (await this.prisma.apiKey.count({ where: { keyHash: hashKey(rawKey) } })) > 0;
  }

  listApiKeys(filter: { organizationId?: string; userId?: string }): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany({ where: filter, orderBy: { createdAt: "asc" } });
  }

  async setDeveloperMode(organizationId: string, enabled: boolean): Promise<Organization> {
    return this.updateOrganization(organizationId, { developerMode: enabled });
  }

  /** Marks (or unmarks) the organisation that runs this deployment; only the CLI calls it. */
  async setOperator(organizationId: string, operator: boolean): Promise<Organization> {
    return this.updateOrganization(organizationId, { operator });
  }

  /** A custom plan's negotiated per-key minute window, or null for the plan's own. */
  async setRatePerMinute(organization: Organization, ratePerMinute: number | null): Promise<Organization> {
    return this.updateOrganization(organization.id, {
      ratePerMinute: negotiatedRate(organization.plan, ratePerMinute),
    });
  }

  /**
   * Every change to an organisation goes through here, so that its keys see the change on their next
   * request in this process (the key cache forgets them).
   */
  async updateOrganization(organizationId: string, changes: OrganizationChanges): Promise<Organization> {
    try {
      return await this.prisma.organization.update({ where: { id: organizationId }, data: changes });
    } finally {
      this.keyCache?.forgetOrganization(organizationId);
      // Plan, feature switches, slots: what the organisation's kept answers show may have changed.
      await answersChanged({ organizations: [organizationId] });
    }
  }

  /**
   * Decides whether a raw key may act. Developer mode is checked last so that a caller with a good
   * key learns the one thing they can fix.
   */
  async authenticate(rawKey: string | undefined): Promise<Authentication> {
    return this.authenticateKnown(rawKey) ?? (await this.authenticateLookedUp(rawKey!));
  }

  /** The rest of `authenticate` for a key `authenticateKnown` could not answer: read from the database. */
  async authenticateLookedUp(rawKey: string): Promise<Authentication> {
    return this.decide(await this.findKey(hashKey(rawKey)));
  }

  /**
   * `authenticate` without a promise when it needs no database: a key absent or malformed, or found in
   * the key cache (the hot path of every request: the gate answers it in the same tick). Undefined when
   * the key has to be looked up. The same checks, in the same order, as `authenticate`.
   */
  authenticateKnown(rawKey: string | undefined): Authentication | undefined {
    if (rawKey === undefined || rawKey === "") return { ok: false, refusal: "missing_key" };
    if (!looksLikeKey(rawKey)) return { ok: false, refusal: "invalid_key" };
    if (!this.keyCache) return undefined;
    const keyHash = hashKey(rawKey);
    const cached = this.keyCache.get(keyHash);
    if (!cached) {
      this.cacheLookups?.miss();
      return undefined;
    }
    this.cacheLookups?.hit();
    if (this.keyCache.claimRenewal(keyHash)) this.renewKey(keyHash);
    return this.decide(cached);
  }

  private decide(found: KeyRow | null): Authentication {
    if (!found) return { ok: false, refusal: "invalid_key" };
    // Checks that depend on time run on every request, on a cached row too.
    if (found.revokedAt) return { ok: false, refusal: "revoked_key" };
    const now = this.clock.now();
    if (found.expiresAt && found.expiresAt.getTime() <= now.getTime())
      return { ok: false, refusal: "expired_key" };
    // The principal of a cached row is built once (it copies the key and works out the plan), until
    // the row changes: `touch` writes on it and forgets it, and a row read again is a new object.
    let principal = principals.get(found);
    if (principal === undefined) {
      principal = principalOf(found);
      principals.set(found, principal);
    }
    this.touch(found, now);
    if (!principal.organization.developerMode) return { ok: false, refusal: "developer_mode_off", principal };
    return { ok: true, principal };
  }

  /** One statement (a join), not three. Only keys that exist are cached: guesses cannot fill the cache. */
  private async findKey(keyHash: string): Promise<KeyRow | null> {
    const token = this.keyCache?.begin() ?? 0;
    const found = await this.prisma.apiKey.findUnique({
      relationLoadStrategy: "join",
      where: { keyHash },
      include: { user: true, organization: true },
    });
    if (found) this.keyCache?.store(keyHash, found, token);
    return found;
  }

  /**
   * Reads a cached key again in the background (KeyCache's renewal): a key deleted meanwhile is
   * forgotten; a failed read leaves the entry to age out as before.
   */
  private renewKey(keyHash: string): void {
    const cache = this.keyCache;
    if (!cache) return;
    this.findKey(keyHash)
      .then((found) => {
        if (!found) cache.forgetKey(keyHash);
      })
      .catch(() => undefined)
      .finally(() => cache.renewalEnded(keyHash));
  }

  private touch(key: ApiKey, now: Date): void {
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // The row may be cached: record the write on it so the next request does not repeat it.
    key.lastUsedAt = now;
    principals.delete(key);
    // Fire and forget: a failed bookkeeping write must never fail the request.
    this.prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  }
}

/** Principals of key rows (a cached row is the same object for the key cache's seconds). */
const principals = new WeakMap<object, Principal>();

/** Only a custom plan is negotiated; the other plans' windows are the published ones. */
function negotiatedRate(plan: PlanCode, ratePerMinute: number | null): number | null {
  if (ratePerMinute === null) return null;
  if (plan !== "custom") {
    throw new AccountError(
      "invalid_input",
      `Only the custom plan has a negotiated rate; this organisation is on ${plan}.`,
    );
  }
  if (
    !Number.isInteger(ratePerMinute) ||
    ratePerMinute < CUSTOM_RATE_BOUNDS.min ||
    ratePerMinute > CUSTOM_RATE_BOUNDS.max
  ) {
    throw new AccountError(
      "invalid_input",
      `A rate per minute is a whole number from ${CUSTOM_RATE_BOUNDS.min} to ${CUSTOM_RATE_BOUNDS.max.toLocaleString("en-GB")}.`,
    );
  }
  return ratePerMinute;
}
