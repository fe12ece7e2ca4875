import { parseArgs } from "node:util";
import type { ShutdownReport } from "../app/server";
import { type AppConfig, loadConfig } from "../config";
import { DataFolderHeldError } from "../db/data-folder-lock";
import { type Database, openDatabase } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { AccountsService } from "../domain/accounts/accounts.service";
import { demoAnnouncement } from "../domain/accounts/demo";
import { FEATURES } from "../domain/accounts/plans";
import { systemClock } from "../lib/clock";
import { sendOperatorCommand } from "../operator/client";
import {
  type CommandResult,
  OPERATOR_COMMANDS,
  type OperatorCommand,
  operatorCommandSchema,
  runOperatorCommand,
} from "../operator/commands";

const USAGE = `Usage: quayside <command> [options]   (every command accepts --json)

  serve                                   run the service (what npm start does)
  migrate                                 apply database migrations
  orgs create --name NAME [--plan free|starter|professional|business|custom]
              [--cycle monthly|yearly] [--no-developer-mode] [--operator] [--per-minute N]
  orgs list
  orgs rate --org ORG_ID_OR_NAME --per-minute N|plan
                                          a custom plan's negotiated requests per key per minute
                                          (the organisation's keys together: five times it);
                                          plan goes back to the plan's own
  orgs billing ORG_ID_OR_NAME [current | overdue N] [grace N]
                                          show or set billing: current (paid up), N days overdue,
                                          days of grace; past grace new tracking answers 402
                                          payment_overdue on every surface
  orgs features ORG_ID_OR_NAME [FEATURE on|off ...]
                                          show or switch the contract's features (${FEATURES.join(", ")});
                                          off answers 403 feature_disabled on every surface
  orgs operator --org ORG_ID_OR_NAME [--off]
                                          mark the organisation that runs this deployment (its
                                          keys may read feed health); --off removes the mark
  users create --org ORG_ID_OR_NAME --email EMAIL [--name NAME] [--role owner|member] [--password PASSWORD]
  users list [--org ORG_ID_OR_NAME]
  keys create --user USER_ID_OR_EMAIL [--name NAME] [--view-only] [--expires-at ISO_DATE]
  keys revoke KEY_ID
  keys list [--org ORG_ID_OR_NAME] [--user USER_ID_OR_EMAIL]
  simulator [--port N] [--host HOST] [--clock ISO]
                                          run the DCSA carrier simulator alone (--clock: a
                                          manual clock frozen there, moved by PUT /_admin/clock)
  ports import DIR                        import the UN/LOCODE release in DIR (ports, time zones, aliases)
  eta scorecard                           predictive ETA scored against arrivals, by horizon and
                                          source (kept snapshots, QUAYSIDE_ETA_SNAPSHOT_RETENTION_DAYS)

While \`quayside serve\` runs on a PGlite data folder, migrate and the orgs, users and keys commands
run inside it (through its operator socket in the folder); ports import needs the server stopped.
`;

export class UsageError extends Error {}

type Output = { json: boolean };

function print(out: Output, human: string, data: unknown): void {
  process.stdout.write(out.json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

export async function runCli(argv: string[]): Promise<number> {
  // The simulator is a program of its own with its own options (--clock): hand it the rest unread.
  if (argv[0] === "simulator") {
    const { runSimulatorCli } = await import("../../simulator/cli");
    await runSimulatorCli(argv.slice(1));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      name: { type: "string" },
      plan: { type: "string" },
      cycle: { type: "string" },
      "no-developer-mode": { type: "boolean", default: false },
      operator: { type: "boolean", default: false },
      "per-minute": { type: "string" },
      off: { type: "boolean", default: false },
      org: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      user: { type: "string" },
      "view-only": { type: "boolean", default: false },
      "expires-at": { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const out: Output = { json: values.json ?? false };
  const [command, sub, arg, ...words] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }

  if (command === "serve") return serve();

  const config = loadConfig();
  const key = `${command} ${sub ?? ""}`.trim();
  if (key === "ports import") return importPortCatalogue(config, out, arg);
  if (!(OPERATOR_COMMANDS as readonly string[]).includes(key))
    throw new UsageError(`Unknown command: ${key}`);
  // orgs billing and orgs features read as sentences: the organisation, then words.
  const worded = key === "orgs billing" || key === "orgs features";
  const org = worded && !values.org ? arg : values.org;
  const rest = worded && !values.org ? words : [arg, ...words].filter((w): w is string => w !== undefined);
  const parsed = operatorCommandSchema.safeParse({
    command: key,
    ...(key === "orgs billing" ? billingWords(rest) : {}),
    ...(key === "orgs features" ? { switches: featureWords(rest) } : {}),
    name: values.name,
    plan: values.plan,
    cycle: values.cycle,
    developerMode: !values["no-developer-mode"],
    operator: key === "orgs operator" ? !values.off : values.operator,
    ratePerMinute: values["per-minute"],
    org,
    email: values.email,
    role: values.role,
    password: values.password,
    user: values.user,
    viewOnly: values["view-only"],
    expiresAt: values["expires-at"],
    keyId: arg,
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? USAGE);
  const result = await runCommand(config, parsed.data);
  print(out, result.human, result.data);
  return 0;
}

/** `current`, `overdue N`, `grace N` in any order: the billing fields they set. */
export function billingWords(words: readonly string[]): {
  current?: boolean;
  overdueDays?: string;
  graceDays?: string;
} {
  const fields: { current?: boolean; overdueDays?: string; graceDays?: string } = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!.toLowerCase();
    if (word === "current") fields.current = true;
    else if (word === "overdue" || word === "grace") {
      const value = words[++i];
      if (value === undefined) throw new UsageError(`orgs billing: ${word} takes a number of days`);
      fields[word === "overdue" ? "overdueDays" : "graceDays"] = value;
    } else {
      throw new UsageError(`orgs billing: unknown word ${words[i]} (current, overdue N, grace N)`);
    }
  }
  return fields;
}

/** `FEATURE on|off` pairs: the switches they set. */
export function featureWords(words: readonly string[]): Record<string, boolean> {
  const switches: Record<string, boolean> = {};
  for (let i = 0; i < words.length; i += 2) {
    const feature = words[i]!.toLowerCase();
    const state = words[i + 1]?.toLowerCase();
    if (!(FEATURES as readonly string[]).includes(feature)) {
      throw new UsageError(`orgs features: no feature ${words[i]} (one of ${FEATURES.join(", ")})`);
    }
    if (state !== "on" && state !== "off") {
      throw new UsageError(`orgs features: ${feature} takes on or off`);
    }
    switches[feature] = state === "on";
  }
  return switches;
}

/** How long a command waits for a server that holds the folder but is still starting. */
const SERVER_START_WAIT_MS = 30_000;

/**
 * Runs a command on the database itself, or, when a running server holds the PGlite folder, inside
 * that server through its operator endpoint (a second opener would damage the folder, and only the
 * server can forget a revoked key from its cache at once).
 */
async function runCommand(config: AppConfig, command: OperatorCommand): Promise<CommandResult> {
  const deadline = Date.now() + SERVER_START_WAIT_MS;
  for (;;) {
    const db = await openOrFindHolder(config, `quayside ${command.command}`);
    if (db instanceof DataFolderHeldError) {
      const { holder } = db;
      if (holder.operator) return sendOperatorCommand(holder.operator, holder.token, command);
      if (holder.command === "quayside serve" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      throw new UsageError(db.message);
    }
    try {
      if (command.command !== "migrate") await applyMigrations(db);
      const accounts = new AccountsService(db.prisma, systemClock);
      return await runOperatorCommand(
        { db, accounts, where: "direct", keyCacheSeconds: config.keyCacheSeconds },
        command,
      );
    } finally {
      await db.close();
    }
  }
}

async function openOrFindHolder(config: AppConfig, holder: string): Promise<Database | DataFolderHeldError> {
  try {
    return await openDatabase(config.database, { holder });
  } catch (error) {
    if (error instanceof DataFolderHeldError) return error;
    if ((error as NodeJS.ErrnoException).code === "EACCES" && config.database.kind === "pglite") {
      throw new UsageError(
        `Cannot read the data folder ${config.database.dataDir}: run quayside as the user that owns it.`,
      );
    }
    throw error;
  }
}

async function importPortCatalogue(config: AppConfig, out: Output, dir: string | undefined): Promise<number> {
  if (!dir) throw new UsageError("ports import needs the folder of a UN/LOCODE release");
  const db = await openOrFindHolder(config, "quayside ports import");
  if (db instanceof DataFolderHeldError) {
    // The import loads ~220 MB of time-zone data: kept out of the server's process on purpose.
    throw new UsageError(
      `${db.message}\nports import opens the database itself: stop the server, import, start it again.`,
    );
  }
  try {
    await applyMigrations(db);
    // geo-tz's full data set (~220 MB) is loaded here only, never by the API process.
    const { importPorts, PortImportError } = await import("../domain/ports/port-import");
    const { loadTimeZoneResolver } = await import("../domain/ports/time-zones");
    try {
      const report = await importPorts({
        dir,
        prisma: db.prisma,
        clock: systemClock,
        timeZoneOf: await loadTimeZoneResolver(),
      });
      print(
        out,
        `Imported ${report.ports} ports (${report.layout} layout, ${report.withTimeZone} with a time zone, ${report.aliases.length} carrier aliases).`,
        report,
      );
    } catch (error) {
      if (error instanceof PortImportError) throw new UsageError(error.message);
      throw error;
    }
    return 0;
  } finally {
    await db.close();
  }
}

async function serve(): Promise<number> {
  const config = loadConfig();
  // The database opens while the server's modules load: the two biggest parts of a restart overlap
  // (PGlite's start runs in WebAssembly, module loading mostly in the loader's thread).
  const database = openOrFindHolder(config, "quayside serve").then((db) => {
    if (db instanceof DataFolderHeldError) throw db;
    return db;
  });
  database.catch(() => undefined); // handled where startServer awaits it
  // Loaded here, not at the top: account commands then start without the whole server's modules.
  const { startServer } = await import("../app/server");
  const server = await startServer(config, { database });
  const log = server.services.logger;
  const lines = [`Quayside is listening on ${server.url}`];
  if (config.workers.only) {
    lines.push(
      "  background work only (QUAYSIDE_WORKERS=only): refresh, discovery, webhooks, disruptions, congestion",
      `  health       ${server.url}/healthz   readiness ${server.url}/readyz   metrics ${server.url}/metrics`,
    );
  } else {
    const demo = demoAnnouncement(server.demo);
    if (demo) lines.push(demo);
    lines.push(
      `  dashboard    ${server.url}/dashboard`,
      `  GraphQL      ${server.url}/graphql`,
      `  v1 API       ${server.url}/api/v1   (OpenAPI ${server.url}/api/v1/openapi.json)`,
      ...(config.sandboxEnabled ? [`  sandbox      ${server.url}/api/v1/sandbox   (no key)`] : []),
      `  compat API   ${server.url}${config.compatPrefix}`,
      `  health       ${server.url}/healthz   metrics ${server.url}/metrics`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);

  const report = await new Promise<ShutdownReport | null>((resolve) => {
    // SIGTERM comes from an orchestrator behind a load balancer: keep serving while readiness fails.
    // SIGINT is Ctrl-C at a terminal, where nobody probes readiness: no drain period.
    const shutdown = (signal: "SIGTERM" | "SIGINT") => {
      const drainMs = signal === "SIGTERM" ? config.shutdownDrainMs : 0;
      log.info({ signal, drainMs, graceMs: config.shutdownGraceMs }, "Shutting down: readiness now fails");
      server.stop({ drainMs }).then(resolve, (error: unknown) => {
        log.error({ err: error }, "Shutdown failed");
        resolve(null);
      });
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  if (report && report.cut.length === 0) log.info("Stopped cleanly");
  else if (report)
    log.warn({ cut: report.cut.length }, "Stopped after cutting requests the grace did not cover");
  return 0;
}
