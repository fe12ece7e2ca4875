import { z } from "zod";
import type { Database } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { AccountError, type AccountsService } from "../domain/accounts/accounts.service";
import {
  FEATURES,
  type Feature,
  minimumPlanFor,
  organizationRatePerMinute,
  PLAN_ORDER,
  PLANS,
  planOf,
} from "../domain/accounts/plans";
import { featureAccess } from "../domain/accounts/principal";
import { etaScorecard } from "../domain/eta/eta.service";
import type { Organization } from "../generated/prisma/client";

/**
 * The operator's account commands, one schema for both ways they run: in the CLI's own process on a
 * database it opened, or inside the running server that holds the PGlite folder (`endpoint.ts`), where
 * they share the server's key cache, so a revocation is refused on the very next request.
 */
const optionalName = z.string().optional();
/** `--per-minute`: a custom plan's negotiated per-key window; bounds are the account service's. */
const ratePerMinute = z.coerce.number({ error: "--per-minute is a whole number" });
/** A number of billing days as the CLI's words give it ("overdue 20", "grace 14"). */
const days = (word: string) =>
  z.coerce
    .number({ error: `${word} takes a whole number of days` })
    .int(`${word} takes a whole number of days`)
    .min(0, `${word} takes a whole number of days`)
    .max(3_650, `${word} takes at most 3650 days`);

export const operatorCommandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("migrate") }),
  z.object({
    command: z.literal("orgs create"),
    name: z.string({ error: "orgs create needs --name" }).trim().min(1, "orgs create needs --name"),
    plan: z.enum(PLAN_ORDER, { error: `--plan is one of ${PLAN_ORDER.join(", ")}` }).default("free"),
    cycle: z.enum(["monthly", "yearly"], { error: "--cycle is monthly or yearly" }).default("monthly"),
    // A self-hosted operator creating an organisation means to use it: on unless asked otherwise.
    developerMode: z.boolean().default(true),
    // The organisation that runs the deployment (its keys read feed health); off unless asked.
    operator: z.boolean().default(false),
    ratePerMinute: ratePerMinute.optional(),
  }),
  z.object({ command: z.literal("orgs list") }),
  z.object({
    command: z.literal("orgs rate"),
    org: z.string({ error: "orgs rate needs --org" }).min(1, "orgs rate needs --org"),
    ratePerMinute: z.union([z.literal("plan"), ratePerMinute], {
      error: "orgs rate needs --per-minute N (a whole number) or --per-minute plan",
    }),
  }),
  z.object({
    command: z.literal("orgs operator"),
    org: z.string({ error: "orgs operator needs --org" }).min(1, "orgs operator needs --org"),
    operator: z.boolean().default(true),
  }),
  z
    .object({
      command: z.literal("orgs billing"),
      org: z
        .string({ error: "orgs billing needs an organisation" })
        .min(1, "orgs billing needs an organisation"),
      /** Paid up: active, nothing overdue. */
      current: z.boolean().default(false),
      /** The oldest unpaid invoice is this many days overdue. */
      overdueDays: days("overdue").min(1, "overdue takes a number of days, 1 or more").optional(),
      /** Days overdue after which new tracking pauses (spec v1: 402 payment_overdue past grace). */
      graceDays: days("grace").optional(),
    })
    .refine((c) => !(c.current && c.overdueDays !== undefined), {
      error: "orgs billing: current and overdue N contradict each other; give one",
    }),
  z.object({
    command: z.literal("orgs features"),
    org: z
      .string({ error: "orgs features needs an organisation" })
      .min(1, "orgs features needs an organisation"),
    /** Switches to set; absent: only show them. */
    switches: z.partialRecord(z.enum(FEATURES), z.boolean()).default({}),
  }),
  z.object({
    command: z.literal("users create"),
    org: z.string({ error: "users create needs --org and --email" }).min(1),
    email: z.string({ error: "users create needs --org and --email" }).min(1),
    name: optionalName,
    role: z.enum(["owner", "member"], { error: "--role is owner or member" }).default("member"),
    /** The dashboard password (at least 10 characters); without it the user cannot sign in yet. */
    password: z.string().optional(),
  }),
  z.object({ command: z.literal("users list"), org: z.string().optional() }),
  z.object({
    command: z.literal("keys create"),
    user: z.string({ error: "keys create needs --user" }).min(1),
    name: optionalName,
    viewOnly: z.boolean().default(false),
    expiresAt: z
      .string()
      .refine((v) => !Number.isNaN(new Date(v).getTime()), "--expires-at must be an ISO date")
      .optional(),
  }),
  z.object({
    command: z.literal("keys revoke"),
    keyId: z.string({ error: "keys revoke needs a key id" }).min(1, "keys revoke needs a key id"),
  }),
  z.object({ command: z.literal("keys list"), org: z.string().optional(), user: z.string().optional() }),
  z.object({ command: z.literal("eta scorecard") }),
]);

export type OperatorCommand = z.infer<typeof operatorCommandSchema>;
export type OperatorCommandName = OperatorCommand["command"];
export const OPERATOR_COMMANDS: readonly OperatorCommandName[] = operatorCommandSchema.options.map(
  (option) => option.shape.command.value,
);

/** What a command prints: a line for people, the data for `--json`. */
export interface CommandResult {
  human: string;
  data: unknown;
}

/** Where a command runs; `where` words the one sentence that differs (how soon a revocation bites). */
export interface CommandContext {
  db: Database;
  accounts: AccountsService;
  where: "server" | "direct";
  /** QUAYSIDE_KEY_CACHE_SECONDS of the servers that may hold a key, for the revocation sentence. */
  keyCacheSeconds: number;
}

export async function runOperatorCommand(
  ctx: CommandContext,
  command: OperatorCommand,
): Promise<CommandResult> {
  const { accounts } = ctx;
  switch (command.command) {
    case "eta scorecard": {
      const rows = await etaScorecard(ctx.db.prisma);
      const hours = (v: number | null) => (v === null ? "-" : v.toFixed(1));
      const lines = rows.map(
        (r) =>
          `${r.bucket.padEnd(7)} ${r.source.padEnd(8)} ${String(r.predictions).padStart(7)} ${String(r.shipments).padStart(9)}  ${r.beforeP50.toFixed(3)}      ${r.beforeP80.toFixed(3)}      ${hours(r.maeP50Hours).padStart(7)}  ${hours(r.maeCarrierHours).padStart(7)}`,
      );
      return {
        human: rows.length
          ? [
              "horizon source   scored  shipments  before_p50 before_p80  mae_p50 mae_carrier (h)",
              ...lines,
            ].join("\n")
          : "No scored predictions yet: snapshots are scored when a followed shipment's vessel arrives.",
        data: rows,
      };
    }
    case "migrate": {
      const report = await applyMigrations(ctx.db);
      return {
        human: report.applied.length ? `Applied ${report.applied.join(", ")}` : "Database is up to date.",
        data: report,
      };
    }
    case "orgs create": {
      const org = await accounts.createOrganization({
        name: command.name,
        plan: command.plan,
        billingCycle: command.cycle,
        developerMode: command.developerMode,
        operator: command.operator,
        ratePerMinute: command.ratePerMinute ?? null,
      });
      return {
        human: `Created organisation ${org.name} (${org.id}), plan ${org.plan}${org.ratePerMinute === null ? "" : ` at ${org.ratePerMinute} requests per key per minute`}${org.operator ? ", operator" : ""}`,
        data: org,
      };
    }
    case "orgs rate": {
      const org = await accounts.setRatePerMinute(
        await organization(accounts, command.org),
        command.ratePerMinute === "plan" ? null : command.ratePerMinute,
      );
      const { ratePerMinute: perKey } = planOf(org);
      return {
        human: `${org.name} (${org.id}): ${perKey} requests per key per minute, ${organizationRatePerMinute(planOf(org))} for its keys together${org.ratePerMinute === null ? " (the plan's own)" : ""}.`,
        data: org,
      };
    }
    case "orgs operator": {
      const org = await accounts.setOperator(
        (await organization(accounts, command.org)).id,
        command.operator,
      );
      return {
        human: org.operator
          ? `${org.name} (${org.id}) operates this deployment: its keys may read feed health.`
          : `${org.name} (${org.id}) no longer operates this deployment.`,
        data: org,
      };
    }
    case "orgs billing": {
      let org = await organization(accounts, command.org);
      const changes = {
        ...(command.current ? { billingState: "active" as const, overdueDays: 0 } : {}),
        ...(command.overdueDays !== undefined
          ? { billingState: "overdue" as const, overdueDays: command.overdueDays }
          : {}),
        ...(command.graceDays !== undefined ? { graceDays: command.graceDays } : {}),
      };
      // Through the account service: the organisation's keys see the change on their next request.
      if (Object.keys(changes).length > 0) org = await accounts.updateOrganization(org.id, changes);
      return { human: billingSentence(org), data: billingOf(org) };
    }
    case "orgs features": {
      let org = await organization(accounts, command.org);
      const switches = Object.entries(command.switches) as [Feature, boolean][];
      if (switches.length > 0) {
        const current = (org.featureSwitches ?? {}) as Record<string, unknown>;
        const next: Record<string, boolean> = {};
        for (const feature of FEATURES) next[feature] = current[feature] !== false;
        for (const [feature, on] of switches) next[feature] = on;
        org = await accounts.updateOrganization(org.id, { featureSwitches: next });
      }
      const features = featuresOf(org);
      return {
        human: [
          `${org.name} (${org.id}), plan ${org.plan}:`,
          ...features.map(
            (f) =>
              `  ${f.feature.padEnd(18)} ${
                f.access === "on"
                  ? "on"
                  : f.access === "feature_disabled"
                    ? "off (403 feature_disabled)"
                    : `not in the plan (403 plan_required: ${minimumPlanFor(f.feature).code} and up)${f.switchedOn ? "" : ", switched off"}`
              }`,
          ),
        ].join("\n"),
        data: { id: org.id, name: org.name, plan: org.plan, features },
      };
    }
    case "orgs list": {
      const orgs = await accounts.listOrganizations();
      return {
        human:
          orgs
            .map(
              (o) =>
                `${o.id}  ${o.name}  ${o.plan}  developer mode ${o.developerMode ? "on" : "off"}${o.operator ? "  operator" : ""}`,
            )
            .join("\n") || "No organisations.",
        data: orgs,
      };
    }
    case "users create": {
      const org = await organization(accounts, command.org);
      const user = await accounts.createUser({
        organizationId: org.id,
        email: command.email,
        name: command.name,
        role: command.role,
        password: command.password,
      });
      const { passwordHash, ...shown } = user;
      return {
        human: `Created user ${user.email} (${user.id}) in ${org.name}${passwordHash ? "; they can sign in to /dashboard" : ""}`,
        data: shown,
      };
    }
    case "users list": {
      const orgs = command.org
        ? [await organization(accounts, command.org)]
        : await accounts.listOrganizations();
      const users = (await Promise.all(orgs.map((o) => accounts.listUsers(o.id)))).flat();
      const orgName = new Map(orgs.map((o) => [o.id, o.name]));
      return {
        human:
          users.map((u) => `${u.id}  ${u.email}  ${u.role}  ${orgName.get(u.organizationId)}`).join("\n") ||
          "No users.",
        // Never the password hash, not even in --json.
        data: users.map(({ passwordHash: _hash, ...user }) => user),
      };
    }
    case "keys create": {
      const user = await accounts.findUser(command.user);
      if (!user) throw new AccountError("not_found", `No user ${command.user}`);
      const { apiKey, rawKey } = await accounts.createApiKey({
        userId: user.id,
        name: command.name,
        viewOnly: command.viewOnly,
        expiresAt: command.expiresAt ? new Date(command.expiresAt) : null,
      });
      const { keyHash: _hash, ...visible } = apiKey;
      return {
        human: `${rawKey}\n(key ${apiKey.id}; shown once, store it now)`,
        data: { ...visible, key: rawKey },
      };
    }
    case "keys revoke": {
      const { keyHash: _hash, ...revoked } = await accounts.revokeApiKey({ keyId: command.keyId });
      const effect =
        ctx.where === "server"
          ? "the running server refuses it from its next request"
          : ctx.keyCacheSeconds > 0
            ? `servers on this database refuse it within ${ctx.keyCacheSeconds} s (QUAYSIDE_KEY_CACHE_SECONDS)`
            : "servers on this database refuse it from their next request";
      return { human: `Revoked key ${revoked.id}; ${effect}.`, data: revoked };
    }
    case "keys list": {
      const org = command.org ? await organization(accounts, command.org) : null;
      const user = command.user ? await accounts.findUser(command.user) : null;
      if (command.user && !user) throw new AccountError("not_found", `No user ${command.user}`);
      const keys = (
        await accounts.listApiKeys({
          ...(org ? { organizationId: org.id } : {}),
          ...(user ? { userId: user.id } : {}),
        })
      ).map(({ keyHash: _hash, ...k }) => k);
      return {
        human:
          keys
            .map(
              (k) =>
                `${k.id}  ${k.displayPrefix}…  ${k.name}${k.viewOnly ? "  view-only" : ""}${k.revokedAt ? "  revoked" : ""}`,
            )
            .join("\n") || "No keys.",
        data: keys,
      };
    }
  }
}

/** An organisation's billing as the contract's 402 `payment_overdue` body names it. */
function billingOf(org: Organization) {
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    billingState: org.billingState,
    overdueDays: org.overdueDays,
    graceDays: org.graceDays,
    trackingPaused: trackingPaused(org),
  };
}

/** The tracking service's own rule (tracking.service.ts): past grace, new tracking pauses. */
function trackingPaused(org: Organization): boolean {
  return org.billingState === "overdue" && org.overdueDays > org.graceDays;
}

function billingSentence(org: Organization): string {
  const who = `${org.name} (${org.id})`;
  if (org.billingState === "active") {
    return `${who}: billing current (grace ${org.graceDays} days if an invoice goes unpaid).`;
  }
  return trackingPaused(org)
    ? `${who}: ${org.overdueDays} days overdue, past its ${org.graceDays}-day grace: new tracking is refused (402 payment_overdue); existing shipments are unaffected.`
    : `${who}: ${org.overdueDays} days overdue, within its ${org.graceDays}-day grace: tracking goes on.`;
}

/** Each contract feature as every surface sees it: on, switched off, or not in the plan. */
function featuresOf(org: Organization) {
  const switches = (org.featureSwitches ?? {}) as Record<string, unknown>;
  return FEATURES.map((feature) => ({
    feature,
    access: featureAccess(org, feature),
    inPlan: PLANS[org.plan].features.includes(feature),
    switchedOn: switches[feature] !== false,
  }));
}

async function organization(accounts: AccountsService, idOrName: string) {
  const org = await accounts.findOrganization(idOrName);
  if (!org) throw new AccountError("not_found", `No organisation ${idOrName}`);
  return org;
}
