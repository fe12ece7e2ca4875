import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { AccountError, AccountsService } from "../domain/accounts/accounts.service";
import { demoAnnouncement } from "../domain/accounts/demo";
import { isPlanCode } from "../domain/accounts/plans";
import { systemClock } from "../lib/clock";

const USAGE = `Usage: quayside <command> [options]   (every command accepts --json)

  serve                                   run the service (what npm start does)
  migrate                                 apply database migrations
  orgs create --name NAME [--plan free|starter|professional|business|custom]
              [--cycle monthly|yearly] [--no-developer-mode]
  orgs list
  users create --org ORG_ID_OR_NAME --email EMAIL [--name NAME] [--role owner|member]
  keys create --user USER_ID_OR_EMAIL [--name NAME] [--view-only] [--expires-at ISO_DATE]
  keys revoke KEY_ID
  keys list [--org ORG_ID_OR_NAME] [--user USER_ID_OR_EMAIL]
  simulator [--port N] [--host HOST]      run the DCSA carrier simulator alone
  ports import DIR                        import the UN/LOCODE release in DIR (ports, time zones, aliases)
`;

export class UsageError extends Error {}

type Output = { json: boolean };

function print(out: Output, human: string, data: unknown): void {
  process.stdout.write(out.json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

export async function runCli(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      name: { type: "string" },
      plan: { type: "string" },
      cycle: { type: "string" },
      "no-developer-mode": { type: "boolean", default: false },
      org: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      user: { type: "string" },
      "view-only": { type: "boolean", default: false },
      "expires-at": { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const out: Output = { json: values.json ?? false };
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }

  if (command === "serve") return serve();
  if (command === "simulator") {
    const { runSimulatorCli } = await import("../simulator/cli");
    await runSimulatorCli(argv.slice(1));
    return 0;
  }

  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    const report = await applyMigrations(db);
    if (command === "migrate") {
      print(
        out,
        report.applied.length ? `Applied ${report.applied.join(", ")}` : "Database is up to date.",
        report,
      );
      return 0;
    }
    const accounts = new AccountsService(db.prisma, systemClock);
    const key = `${command} ${sub ?? ""}`.trim();
    switch (key) {
      case "orgs create": {
        if (!values.name) throw new UsageError("orgs create needs --name");
        const plan = values.plan ?? "free";
        if (!isPlanCode(plan)) throw new UsageError(`Unknown plan ${plan}`);
        const cycle = values.cycle ?? "monthly";
        if (cycle !== "monthly" && cycle !== "yearly") throw new UsageError("--cycle is monthly or yearly");
        const org = await accounts.createOrganization({
          name: values.name,
          plan,
          billingCycle: cycle,
          // A self-hosted operator creating an organisation means to use it: on unless asked otherwise.
          developerMode: !values["no-developer-mode"],
        });
        print(out, `Created organisation ${org.name} (${org.id}), plan ${org.plan}`, org);
        return 0;
      }
      case "orgs list": {
        const orgs = await accounts.listOrganizations();
        print(
          out,
          orgs
            .map((o) => `${o.id}  ${o.name}  ${o.plan}  developer mode ${o.developerMode ? "on" : "off"}`)
            .join("\n") || "No organisations.",
          orgs,
        );
        return 0;
      }
      case "users create": {
        if (!values.org || !values.email) throw new UsageError("users create needs --org and --email");
        const org = await accounts.findOrganization(values.org);
        if (!org) throw new AccountError("not_found", `No organisation ${values.org}`);
        const role = values.role ?? "member";
        if (role !== "owner" && role !== "member") throw new UsageError("--role is owner or member");
        const user = await accounts.createUser({
          organizationId: org.id,
          email: values.email,
          name: values.name,
          role,
        });
        print(out, `Created user ${user.email} (${user.id}) in ${org.name}`, user);
        return 0;
      }
      case "keys create": {
        if (!values.user) throw new UsageError("keys create needs --user");
        const user = await accounts.findUser(values.user);
        if (!user) throw new AccountError("not_found", `No user ${values.user}`);
        const expiresAt = values["expires-at"] ? new Date(values["expires-at"]) : null;
        if (expiresAt && Number.isNaN(expiresAt.getTime()))
          throw new UsageError("--expires-at must be an ISO date");
        const { apiKey, rawKey } = await accounts.createApiKey({
          userId: user.id,
          name: values.name,
          viewOnly: values["view-only"],
          expiresAt,
        });
        const { keyHash: _hash, ...visible } = apiKey;
        print(out, `${rawKey}\n(key ${apiKey.id}; shown once, store it now)`, { ...visible, key: rawKey });
        return 0;
      }
      case "keys revoke": {
        if (!arg) throw new UsageError("keys revoke needs a key id");
        const { keyHash: _hash, ...revoked } = await accounts.revokeApiKey({ keyId: arg });
        print(out, `Revoked key ${revoked.id}`, revoked);
        return 0;
      }
      case "keys list": {
        const org = values.org ? await accounts.findOrganization(values.org) : null;
        const user = values.user ? await accounts.findUser(values.user) : null;
        if (values.org && !org) throw new AccountError("not_found", `No organisation ${values.org}`);
        if (values.user && !user) throw new AccountError("not_found", `No user ${values.user}`);
        const keys = (
          await accounts.listApiKeys({
            ...(org ? { organizationId: org.id } : {}),
            ...(user ? { userId: user.id } : {}),
          })
        ).map(({ keyHash: _hash, ...k }) => k);
        print(
          out,
          keys
            .map(
              (k) =>
                `${k.id}  ${k.displayPrefix}…  ${k.name}${k.viewOnly ? "  view-only" : ""}${k.revokedAt ? "  revoked" : ""}`,
            )
            .join("\n") || "No keys.",
          keys,
        );
        return 0;
      }
      case "ports import": {
        if (!arg) throw new UsageError("ports import needs the folder of a UN/LOCODE release");
        // geo-tz's full data set (~220 MB) is loaded here only, never by the API process.
        const { importPorts, PortImportError } = await import("../domain/ports/port-import");
        const { loadTimeZoneResolver } = await import("../domain/ports/time-zones");
        try {
          const report = await importPorts({
            dir: arg,
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
      }
      default:
        throw new UsageError(`Unknown command: ${key}`);
    }
  } finally {
    await db.close();
  }
}

async function serve(): Promise<number> {
  const config = loadConfig();
  // Loaded here, not at the top: account commands then start without the whole server's modules.
  const { startServer } = await import("../server");
  const server = await startServer(config);
  const log = server.services.logger;
  const lines = [`Quayside is listening on ${server.url}`];
  const demo = demoAnnouncement(server.demo);
  if (demo) lines.push(demo);
  lines.push(
    `  GraphQL      ${server.url}/graphql`,
    `  v1 API       ${server.url}/api/v1   (OpenAPI ${server.url}/api/v1/openapi.json)`,
    ...(config.sandboxEnabled ? [`  sandbox      ${server.url}/api/v1/sandbox   (no key)`] : []),
    `  compat API   ${server.url}${config.compatPrefix}`,
    `  health       ${server.url}/healthz   metrics ${server.url}/metrics`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);

  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, "Draining in-flight requests");
      server.stop().then(resolve, resolve);
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  log.info("Stopped cleanly");
  return 0;
}
