import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { SimulatedWorld } from "../../simulator/world/world";
import type { AppConfig } from "../config";
import { type Database, openDatabase } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { migratedTemplateOffThread } from "../db/migrated-template";
import { startNumberingAt } from "../domain/accounts/organization-counters";
import { FEATURES, planOf } from "../domain/accounts/plans";
import type { Principal } from "../domain/accounts/principal";
import { findPort } from "../domain/ports/port-directory";
import { computeCheckDigit } from "../domain/references/container-number";
import { RESERVED_REFERENCES } from "../domain/sandbox/reserved-references";
import { SandboxTrackingService } from "../domain/sandbox/sandbox-tracking.service";
import { shipmentName } from "../domain/shipments/shipment-id";
import { boxTerminals } from "../domain/terminals/box-terminals";
import { DELAY_THRESHOLD_MS } from "../domain/tracking/shipment-facts";
import type { WebhookEventName } from "../domain/webhooks/events";
import type { SampleDelivery, WebhooksService } from "../domain/webhooks/webhooks.service";
import { ManualClock } from "../lib/clock";
import type { Logger } from "../observability/logger";
import { createCarrierTracker, loadCarrierRegistry } from "../upstream/carriers/carrier-registry";
import { mapDcsaEvents } from "../upstream/carriers/dcsa-tnt.mapper";
import { DayOneStopped } from "./day-one";
import { createLookupUpstreams, startLookupWork } from "./lookups-wiring";
import { SANDBOX_PORT_WATCH_ORGANIZATION, watchSandboxCongestion } from "./sandbox-congestion";
import { seedSandboxContractTerms } from "./sandbox-demurrage";
import { SANDBOX_DISRUPTION_IDS, seedSandboxDisruptions } from "./sandbox-disruptions";
import { seedSandboxPartners } from "./sandbox-partners";
import { seedSandboxWorkspace } from "./sandbox-workspace";
import { createServices, type Services } from "./services";
import { terminalSourceFor } from "./terminals-wiring";

/**
 * The sandbox world (spec v1 section 4.3): the simulator's world with its clock frozen, served by
 * a service of its own (an in-memory database, its own simulator over loopback HTTP, the real
 * engine), holding one organisation and eight shipments. Every sandbox request runs against it one
 * at a time, and whatever a request wrote is put back afterwards: writes answer the real shape and
 * change nothing.
 */

/** The frozen moment of the sandbox world. */
export const SANDBOX_NOW = "2026-09-01T12:00:00.000Z";
/** The carrier a reference no carrier claims is tracked with (its world knows every reference). */
export const SANDBOX_CARRIER = "MAEU";
export const SANDBOX_ORGANIZATION = "Sandbox";
/** Shipment numbers start here, so the eight are SHP-1000 to SHP-1007. */
const FIRST_SHIPMENT_NUMBER = 1000;
/** The eight shipments: three in transit on time, two delayed, two delivered, one that failed. */
const WANTED = { onTime: 3, delayed: 2, delivered: 2 } as const;
/**
 * The seven the world knows, sorted into in transit, delayed and delivered by the rules of
 * `pickShipments` (searching takes tens of seconds, too long for a first sandbox request);
 * test/api/sandbox.test.ts checks the mix. Not simply the first of each kind that
 * `scripts/pick-sandbox-shipments.ts` prints: chosen among more of them so the demo shows every state
 * at the frozen moment (the sandbox terminal, D&D and predictive ETA tests check them). The three on
 * time are discharged at their port: one in the yard for days, overdue on the demo contract; one under
 * a freight hold; one nearing its last free day. The two delayed are still at sea (every delayed box
 * among the first twenty thousand sandbox numbers is, at that moment). One delivered box gated out
 * after a customs inspection and a freight hold were lifted.
 */
const SANDBOX_REFERENCES: readonly { reference: string; kind: SandboxShipment["kind"] }[] = [
  { reference: "SBXU1004493", kind: "in_transit" },
  { reference: "SBXU1004739", kind: "in_transit" },
  { reference: "SBXU1002058", kind: "in_transit" },
  { reference: "SBXU1007363", kind: "delayed" },
  { reference: "SBXU1040377", kind: "delayed" },
  { reference: "SBXU1000029", kind: "delivered" },
  { reference: "SBXU1000034", kind: "delivered" },
];
/** When the eight were first tracked. */
export const FIRST_FETCH_BEFORE_MS = 5 * 86_400_000;
/** The failed one: a number the sandbox's carrier has no record of. */
const FAILED_SERIAL = 900_001;

export interface SandboxShipment {
  name: string;
  reference: string;
  kind: "in_transit" | "delayed" | "delivered" | "failed";
}

/** The server stopped while the sandbox world was built: what the build opened is closed. */
export class SandboxBuildStopped extends Error {
  constructor() {
    super("the sandbox world's build stopped with the server");
  }
}

/**
 * A built world as data (`SandboxWorld.image`), for a process to load instead of building it: what
 * the build leaves besides its answers' code. Its database (the seeded tables and the snapshot schema
 * the writes are put back from, as PGlite's data folder dump), the workspace documents' bytes, the key
 * its partner secrets are sealed with, its principal, its eight shipments, the snapshot's table and
 * sequence list, and how many of the fixed disruption ids the build used. The simulator and every
 * cache hold nothing a request reads that the database does not: the simulator's world is a pure
 * function of its seed and the frozen clock.
 */
export interface SandboxWorldImage {
  /** The configuration the world was built with (`sandboxConfigFingerprint`): only the same loads it. */
  fingerprint: string;
  database: Uint8Array<ArrayBuffer>;
  documents: readonly { path: string; base64: string }[];
  secretsKey: string;
  /** The principal's rows, Dates as `{ $date }` (JSON). */
  principal: string;
  shipments: readonly SandboxShipment[];
  tables: readonly string[];
  sequences: readonly { name: string; value: string | null }[];
  disruptionIdsUsed: number;
}

// A built world this process already holds, loaded instead of building one (`provideSandboxWorldImage`).
let providedImage: Promise<SandboxWorldImage> | undefined;

/**
 * A world a test run already built (test/support/global-setup.ts), loaded by every world this process
 * builds whose configuration matches: a build is 16 to 18 s of CPU, a load well under one. Nothing
 * provides one in the product: a real install builds its world as it always did.
 */
export function provideSandboxWorldImage(image: Promise<SandboxWorldImage>): void {
  providedImage = image;
}

/**
 * Settings a build never reads, so two configurations differing only in them build the same world:
 * the ones the world replaces with its own (its database, Redis, the AIS feed, the secrets key), the
 * live server's listener, HTTP layer and facades (the build calls its services directly), the live
 * processes (the embedded simulator: the world starts its own; workers, day one, the demo account,
 * news feeds: the world's services are given none), when the world is built, and two that only act
 * when something fails or is sent (carrier-call attempts and timeouts: the world's own simulator on
 * loopback has no faults; private webhook targets: the build delivers nothing). A request reads the
 * live configuration at its own time, loaded world or built.
 */
const NOT_READ_BY_A_BUILD: readonly (keyof AppConfig)[] = [
  "database",
  "redisUrl",
  "aisFeed",
  "secrets",
  "host",
  "trustProxy",
  "http",
  "bodyLimit",
  "shutdownGraceMs",
  "shutdownDrainMs",
  "metrics",
  "authFailuresPerMinute",
  "keylessPerMinute",
  "compatPrefix",
  "mcpEnabled",
  "mcpAllowedHosts",
  "mcpAllowedOrigins",
  "logLevel",
  "graphqlExecution",
  "answerCache",
  "answerCacheEntries",
  "documentCacheEntries",
  "simulator",
  "workers",
  "dayOne",
  "demo",
  "disruptionFeeds",
  "sandboxWorld",
  "sandboxEnabled",
  "carrierCalls",
  "webhookAllowPrivateTargets",
];

/** What of the live configuration can change the world a build makes (a loaded image must match it). */
export function sandboxConfigFingerprint(config: AppConfig): string {
  const read: Record<string, unknown> = { ...config };
  for (const key of NOT_READ_BY_A_BUILD) delete read[key];
  // The world keeps its documents in a folder of its own.
  const { storage: _storage, ...documents } = config.documents;
  // Of the raw variables (parsed into the settings above), a build reads only the schedule sources'
  // addresses by name (schedule-gateway.ts); its carrier registry is given none.
  const environment = Object.fromEntries(
    Object.entries(config.environment).filter(([name]) => name.endsWith("_SCHEDULES_URL")),
  );
  return stableJson({ ...read, documents, environment });
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) && !Buffer.isBuffer(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const principalJson = (principal: Principal): string =>
  JSON.stringify({ ...principal, plan: undefined }, function (this: Record<string, unknown>, key, v) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : v;
  });

function principalFromJson(json: string): Principal {
  const rows = JSON.parse(json, (_key, v: unknown) =>
    v && typeof v === "object" && "$date" in v ? new Date((v as { $date: string }).$date) : v,
  ) as Omit<Principal, "plan">;
  return { ...rows, plan: planOf(rows.organization) };
}

async function filesUnder(root: string, dir = root): Promise<{ path: string; base64: string }[]> {
  const files: { path: string; base64: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(root, full)));
    else if (entry.isFile())
      files.push({ path: path.relative(root, full), base64: (await readFile(full)).toString("base64") });
  }
  return files;
}

export class SandboxWorld {
  private queue: Promise<unknown> = Promise.resolve();

  readonly services: Services;
  readonly principal: Principal;
  readonly shipments: readonly SandboxShipment[];
  private readonly db: Database;
  private readonly simulator: RunningSimulator;
  private readonly snapshot: Snapshot;
  private readonly sampleSender: Pick<WebhooksService, "sendSample">;
  private readonly documentsDir: string;
  private readonly image: Omit<SandboxWorldImage, "database" | "documents" | "tables" | "sequences">;

  private constructor(parts: {
    services: Services;
    principal: Principal;
    shipments: readonly SandboxShipment[];
    db: Database;
    simulator: RunningSimulator;
    snapshot: Snapshot;
    sampleSender: Pick<WebhooksService, "sendSample">;
    documentsDir: string;
    image: Omit<SandboxWorldImage, "database" | "documents" | "tables" | "sequences">;
  }) {
    this.services = parts.services;
    this.principal = parts.principal;
    this.shipments = parts.shipments;
    this.db = parts.db;
    this.simulator = parts.simulator;
    this.snapshot = parts.snapshot;
    this.sampleSender = parts.sampleSender;
    this.documentsDir = parts.documentsDir;
    this.image = parts.image;
  }

  /**
   * The world as data, for another process to load (`provideSandboxWorldImage`). Taken between
   * requests, with the tracking lookups still waiting for their flush written first: the built world
   * writes them a moment after its build, before any request could see them missing.
   */
  takeImage(): Promise<SandboxWorldImage> {
    // Queued like a request, but not put back afterwards: the flushed lookups are part of the world.
    const taken = this.queue.then(async () => {
      await this.services.lookupLog.flush();
      const dump = await this.db.pglite!.dumpDataDir("none");
      return {
        ...this.image,
        database: new Uint8Array(await dump.arrayBuffer()),
        documents: await filesUnder(this.documentsDir),
        tables: this.snapshot.tables,
        sequences: this.snapshot.sequences,
      };
    });
    this.queue = taken.catch(() => undefined);
    return taken;
  }

  /**
   * Runs one request against the world, alone, and puts back every table it wrote to (and the
   * in-memory windows and allowances) before the next one runs.
   */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      const statements: string[] = [];
      this.db.statements.capture = statements;
      try {
        return await fn();
      } finally {
        this.db.statements.capture = null;
        const written = writtenTables(statements);
        if (written !== null) await this.snapshot.restore(written);
        this.services.counters.clear?.();
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * One sample delivery of `event` carrying the world's own data, read inside the world's queue so
   * it never sees a request's writes half put back. Sent by the live service, on the server's clock:
   * the world's clock stands still, and a delivery signed (and `created`) at the frozen moment fails
   * every receiver's timestamp tolerance. Only the content comes from the world; nothing is stored.
   */
  async sendSample(url: string, event: WebhookEventName): Promise<SampleDelivery> {
    const data = await this.run(() => this.sampleEventData(event));
    return this.sampleSender.sendSample(url, event, data);
  }

  /** The data a delivery of `event` would carry, from the world's own shipments. */
  async sampleEventData(event: WebhookEventName): Promise<Record<string, unknown>> {
    if (event === "webhook.test") {
      return { endpoint_id: "sandbox", message: "This is a test delivery from the Quayside sandbox." };
    }
    const kind =
      event === "shipment.arrived" || event === "shipment.vessel_arrived" ? "delivered" : "in_transit";
    const pick = this.shipments.find((s) => s.kind === kind) ?? this.shipments[0]!;
    const row = await this.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: this.principal.organization.id, number: BigInt(pick.name.slice(4)) },
    });
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    if (event === "discovery.recovered") {
      return {
        reference_number: row.reference,
        type: "Container",
        carrier: row.carrierScac ?? SANDBOX_CARRIER,
        carrier_name: this.services.carriers.find((c) => c.scac === row.carrierScac)?.name ?? row.carrierScac,
        shipment_id: pick.name,
      };
    }
    const eta = iso(row.eta);
    const previous = {
      "shipment.updated": { status: "PLANNED", eta },
      "shipment.vessel_arrived": { status: row.status, eta },
      "shipment.arrived": { status: "IN_TRANSIT", eta },
      "eta.changed": {
        status: row.status,
        eta: row.eta ? new Date(row.eta.getTime() - 2 * 86_400_000).toISOString() : null,
      },
    }[event];
    return {
      shipment_id: pick.name,
      reference_number: row.reference,
      carrier: row.carrierScac,
      status: row.status,
      previous_status: previous.status,
      eta,
      previous_eta: previous.eta,
      ata: event === "shipment.updated" || event === "eta.changed" ? null : iso(row.ata),
    };
  }

  async close(): Promise<void> {
    await this.queue;
    await this.services.close();
    await this.simulator.close();
    await this.db.close();
    await rm(this.documentsDir, { recursive: true, force: true });
  }

  static async create(input: {
    config: AppConfig;
    logger: Logger;
    /** The live service's webhooks: sample deliveries go out on the server's clock. */
    sampleSender: Pick<WebhooksService, "sendSample">;
    /**
     * The server stopping: the build stops at its next step, closes what it opened and throws
     * SandboxBuildStopped, so a stop does not wait seconds for a world nobody will read.
     */
    stop?: AbortSignal;
  }): Promise<SandboxWorld> {
    const started = Date.now();
    const phases: Record<string, number> = {};
    let opened: (() => Promise<void>) | undefined;
    const phase = async (name: string) => {
      phases[name] = Date.now() - started;
      if (!input.stop?.aborted) return;
      await opened?.();
      throw new SandboxBuildStopped();
    };
    const fingerprint = sandboxConfigFingerprint(input.config);
    const image = await providedImageFor(fingerprint, input.logger);
    const clock = new ManualClock(SANDBOX_NOW);
    // Its workspace documents live in a folder of its own, removed with the world.
    const documentsDir = await mkdtemp(path.join(tmpdir(), "quayside-sandbox-documents-"));
    for (const file of image?.documents ?? []) {
      const target = path.join(documentsDir, file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, Buffer.from(file.base64, "base64"));
    }
    // Its partner secrets are sealed under a key of its own: they live and die with its in-memory
    // database, and a loaded image carries the key its database's secrets were sealed with.
    const secretsKey = image ? Buffer.from(image.secretsKey, "base64") : randomBytes(32);
    const config: AppConfig = {
      ...input.config,
      redisUrl: undefined,
      aisFeed: undefined,
      secrets: { key: secretsKey, keyFile: undefined },
      documents: { ...input.config.documents, storage: { kind: "local", dir: documentsDir } },
    };
    const world = sandboxSimulatedWorld();
    // Made off the server's thread (the worker's initdb and migrations are seconds of work); should the
    // worker fail, made here as before.
    const template = image
      ? new Blob([image.database])
      : await migratedTemplateOffThread().catch((error: unknown) => {
          input.logger.warn({ err: error }, "The sandbox database template was not made off thread");
          return undefined;
        });
    const db = await openDatabase({ kind: "pglite", dataDir: "memory://" }, { loadDataDir: template });
    await applyMigrations(db);
    const simulator = await startSimulator({ port: 0, host: "127.0.0.1", clock, world });
    const registry = loadCarrierRegistry({
      file: config.carrierRegistryFile,
      env: {},
      simulatorUrl: simulator.url,
    });
    const lookupUpstreams = createLookupUpstreams({
      config,
      prisma: db.prisma,
      registry,
      simulatorUrl: simulator.url,
      clock,
    });
    // The world answers its own sample deliveries, once it exists (no request reaches it before).
    let sandbox!: SandboxWorld;
    const services = createServices({
      config,
      db,
      clock,
      logger: input.logger,
      carrierGateway: createCarrierTracker(registry, { clock, timeoutMs: 10_000, retry: { maxAttempts: 1 } }),
      connectedCarriers: registry.connected,
      lookupUpstreams,
      createTracking: (deps) => new SandboxTrackingService({ ...deps, fallbackCarrier: SANDBOX_CARRIER }),
      sampleDeliveries: { send: (url, event) => sandbox.sendSample(url, event) },
      // A loaded world's next new event takes the id the built one's would have.
      disruptionIds: SANDBOX_DISRUPTION_IDS.slice(image?.disruptionIdsUsed ?? 0),
      terminalSource: terminalSourceFor(simulator.url),
    });
    opened = async () => {
      await services.close();
      await simulator.close();
      await db.close();
      await rm(documentsDir, { recursive: true, force: true });
    };
    await phase("database");
    await startLookupWork({
      config,
      lookups: services.lookups,
      prisma: db.prisma,
      clock,
      logger: input.logger,
    });

    await phase("ports");
    if (image) {
      sandbox = new SandboxWorld({
        services,
        principal: principalFromJson(image.principal),
        shipments: image.shipments,
        db,
        simulator,
        snapshot: Snapshot.of(db, image),
        sampleSender: input.sampleSender,
        documentsDir,
        image: {
          fingerprint,
          secretsKey: image.secretsKey,
          principal: image.principal,
          shipments: image.shipments,
          disruptionIdsUsed: image.disruptionIdsUsed,
        },
      });
      input.logger.info({ msAfterStart: phases, loaded: true }, "Sandbox world ready");
      return sandbox;
    }
    const { accounts } = services;
    const organization = await accounts.createOrganization({
      name: SANDBOX_ORGANIZATION,
      plan: "business",
      developerMode: true,
      features: Object.fromEntries(FEATURES.map((f) => [f, true])),
    });
    await startNumberingAt(db.prisma, organization.id, "shipments", FIRST_SHIPMENT_NUMBER);
    const user = await accounts.createUser({
      organizationId: organization.id,
      email: "sandbox@quayside.local",
      name: "Sandbox",
      role: "owner",
    });
    // Joined at the frozen moment, not when this process built the world: answers stay the same.
    await db.prisma.user.update({ where: { id: user.id }, data: { createdAt: clock.now() } });
    const { rawKey } = await accounts.createApiKey({ userId: user.id, name: "Sandbox" });
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) throw new Error("the sandbox key does not authenticate");
    const principal = authentication.principal;

    // Tracked first five days before the frozen moment and fetched again at it, as a customer's
    // shipments would have been: the second fetch is what makes a delay visible.
    const firstFetch = new Date(clock.now().getTime() - FIRST_FETCH_BEFORE_MS);
    const chosen = [...SANDBOX_REFERENCES, { reference: failedReference(), kind: "failed" as const }];
    const track = (reference: string) =>
      services.tracking.track(principal, {
        reference,
        type: "container",
        carrier: SANDBOX_CARRIER,
        freshness: "fetch",
        surface: "v1",
      });
    await phase("picked");
    clock.set(firstFetch);
    for (const pick of chosen) await track(pick.reference);
    await phase("first fetch");
    clock.set(SANDBOX_NOW);
    for (const pick of chosen) await track(pick.reference);
    const shipments = chosen.map((pick, i) => ({ name: shipmentName(FIRST_SHIPMENT_NUMBER + i), ...pick }));
    await phase("tracked");
    await seedSandboxContractTerms(services, organization.id);
    await checkTerminals(services, organization.id);
    await phase("terminals");
    await seedSandboxDisruptions(services, organization.id, clock.now());
    await phase("disruptions");
    await seedSandboxWorkspace(services, principal);
    await seedSandboxPartners(services, organization.id);
    await phase("workspace");
    await watchSandboxCongestion({
      services,
      clock,
      world,
      watcher: await portWatcher(services, clock),
      scheduleSources: lookupUpstreams.scheduleSources ?? [],
      logger: input.logger,
      stop: input.stop,
    }).catch((error: unknown) => {
      // Day one's sampling stopped for the same stop: the next phase closes the world.
      if (error instanceof DayOneStopped) return undefined;
      throw error;
    });
    clock.set(SANDBOX_NOW);
    await phase("congestion");
    // What the eta worker does after a version is stored, at the frozen moment and with the ports'
    // readings in: every read then serves the kept prediction.
    while ((await services.eta.computeDue(50)) > 0) {}
    await phase("predictions");
    // The build's own counts (its tracking calls' windows and allowances) are not a request's: the
    // first request starts from none, as every later one does once its predecessor's are cleared.
    services.counters.clear?.();
    const snapshot = await Snapshot.take(db);
    await phase("snapshot");
    input.logger.info({ msAfterStart: phases }, "Sandbox world ready");
    sandbox = new SandboxWorld({
      services,
      principal,
      shipments,
      db,
      simulator,
      snapshot,
      sampleSender: input.sampleSender,
      documentsDir,
      image: {
        fingerprint,
        secretsKey: secretsKey.toString("base64"),
        principal: principalJson(principal),
        shipments,
        disruptionIdsUsed: await disruptionIdsUsed(db),
      },
    });
    return sandbox;
  }
}

/** The provided image, when there is one and it was built with this configuration. */
async function providedImageFor(fingerprint: string, logger: Logger): Promise<SandboxWorldImage | undefined> {
  const image = await providedImage?.catch((error: unknown) => {
    logger.warn({ err: error }, "The provided sandbox world could not be read; building one");
    return undefined;
  });
  if (!image) return undefined;
  if (image.fingerprint === fingerprint) return image;
  const built = JSON.parse(image.fingerprint) as Record<string, unknown>;
  const wanted = JSON.parse(fingerprint) as Record<string, unknown>;
  const differing = Object.keys({ ...built, ...wanted }).filter(
    (key) => JSON.stringify(built[key]) !== JSON.stringify(wanted[key]),
  );
  logger.info({ differing }, "The provided sandbox world was built with another configuration; building one");
  return undefined;
}

/** How many of the fixed disruption ids the build gave out (in order: the events, merged ones too). */
async function disruptionIdsUsed(db: Database): Promise<number> {
  const ids = [...SANDBOX_DISRUPTION_IDS];
  const [events, aliases] = await Promise.all([
    db.prisma.disruption.findMany({ where: { id: { in: ids } }, select: { id: true } }),
    db.prisma.disruptionAlias.findMany({ where: { id: { in: ids } }, select: { id: true } }),
  ]);
  const taken = new Set([...events, ...aliases].map((row) => row.id));
  return ids.reduce((used, id, i) => (taken.has(id) ? i + 1 : used), 0);
}

/**
 * The terminal records of the eight as the live service would hold them: every box registered and
 * its terminal asked at the frozen moment. Their states (test/api/sandbox-terminals.test.ts): boxes
 * in the yard, one under a freight hold, one the terminal has no manifest for yet (`finding`), boxes
 * gated out, and the failed shipment with no record (null).
 */
async function checkTerminals(services: Services, organizationId: string): Promise<void> {
  const rows = await services.db.prisma.shipment.findMany({
    where: { organizationId, documentId: { not: null } },
    select: { documentId: true },
  });
  const documents = await services.documents.latestOfMany(
    rows.flatMap((r) => (r.documentId ? [r.documentId] : [])),
  );
  for (const latest of documents) {
    if (latest) await services.terminals.register(boxTerminals(latest.content), latest.content.carrierScac);
  }
  while ((await services.terminals.checkDue(25)) > 0) {
    // every registered box is asked once; a box not known yet is due again hours later, not now
  }
}

/**
 * The owner of the organisation that tracks the board ports' shipments (sandbox-congestion.ts), as a
 * principal without a key: no sandbox request acts as it, and its shipments are in no sandbox answer.
 */
async function portWatcher(services: Services, clock: ManualClock): Promise<Principal> {
  const organization = await services.accounts.createOrganization({
    name: SANDBOX_PORT_WATCH_ORGANIZATION,
    plan: "business",
  });
  const user = await services.accounts.createUser({
    organizationId: organization.id,
    email: "port-watch@quayside.local",
    name: "Sandbox port watch",
    role: "owner",
  });
  await services.db.prisma.user.update({ where: { id: user.id }, data: { createdAt: clock.now() } });
  const row = await services.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  return { apiKey: null, user: row, organization, plan: planOf(organization) };
}

/** The world the sandbox's simulator serves: every reference known, except the not-found ones. */
export function sandboxSimulatedWorld(): SimulatedWorld {
  return new SimulatedWorld(4096, { unknown: [RESERVED_REFERENCES.notFound, failedReference()] });
}

const failedReference = () => containerNumber("SBXU", FAILED_SERIAL);

function containerNumber(prefix: string, serial: number): string {
  const first10 = `${prefix}${String(serial).padStart(6, "0")}`;
  return `${first10}${computeCheckDigit(first10)}`;
}

/**
 * Sandbox box numbers whose shipments are, at the frozen moment, in transit on time, delayed (the
 * carrier's ETA moved by more than a day since the first fetch) and delivered: found by asking the
 * world, so they follow it if it changes (a test checks the mix).
 */
export function pickShipments(world: SimulatedWorld, now: Date, firstFetch: Date) {
  const reserved = new Set<string>(Object.values(RESERVED_REFERENCES));
  const documentAt = (reference: string, at: Date) => {
    const shipment = world.shipmentFor(SANDBOX_CARRIER, reference, "equipment", at);
    if (!shipment) return null;
    const mapped = mapDcsaEvents(world.eventsFor(shipment, at, { equipmentReference: reference }), {
      reference,
      referenceType: "container",
      carrierScac: SANDBOX_CARRIER,
      fetchedAt: at,
      locationLookup: findPort,
    });
    return mapped.ok ? { key: shipment.key, doc: mapped.document } : null;
  };
  const found = { onTime: [] as string[], delayed: [] as string[], delivered: [] as string[] };
  const full = () => Object.entries(WANTED).every(([k, n]) => found[k as keyof typeof WANTED].length >= n);
  for (let serial = 100_001; serial < 120_000 && !full(); serial++) {
    const reference = containerNumber("SBXU", serial);
    if (reserved.has(reference)) continue;
    const current = documentAt(reference, now);
    const first = current && documentAt(reference, firstFetch);
    // The same shipment at both fetches, so the second one revises the first.
    if (!current || !first || first.key !== current.key) continue;
    const slipMs =
      Date.parse(current.doc.route.pod.instant ?? "") - Date.parse(first.doc.route.pod.instant ?? "");
    const bucket =
      current.doc.status === "DELIVERED"
        ? "delivered"
        : current.doc.status !== "IN_TRANSIT" || first.doc.status === "DELIVERED"
          ? null
          : slipMs > DELAY_THRESHOLD_MS
            ? "delayed"
            : Math.abs(slipMs) < DELAY_THRESHOLD_MS / 4
              ? "onTime"
              : null;
    if (bucket && found[bucket].length < WANTED[bucket]) found[bucket].push(reference);
  }
  return [
    ...found.onTime.map((reference) => ({ reference, kind: "in_transit" as const })),
    ...found.delayed.map((reference) => ({ reference, kind: "delayed" as const })),
    ...found.delivered.map((reference) => ({ reference, kind: "delivered" as const })),
  ];
}

/**
 * Tables that triggers write when a statement writes the key table. The restore puts tables back
 * with triggers off (replica role), so these are put back from the snapshot alongside.
 */
const TRIGGER_WRITES: Readonly<Record<string, readonly string[]>> = {
  shipments: ["organization_shipment_counts", "organization_counters"],
  tracking_lookups: ["organization_counters"],
  shipment_slots: ["shipment_slot_counts"],
};

/** Tables a request wrote to, from the statements it sent; null when it wrote nothing. */
function writtenTables(statements: readonly string[]): Set<string> | null {
  const tables = new Set<string>();
  let wrote = false;
  for (const sql of statements) {
    const head = sql.trimStart().slice(0, 200);
    if (!/^(INSERT|UPDATE|DELETE|WITH|MERGE|TRUNCATE)\b/i.test(head)) continue;
    const target =
      /^(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:"?public"?\.)?"?(\w+)"?/i.exec(
        head,
      );
    if (target) {
      tables.add(target[1]!);
      for (const also of TRIGGER_WRITES[target[1]!] ?? []) tables.add(also);
      wrote = true;
    } else if (/\b(INSERT|UPDATE|DELETE)\b/i.test(sql)) {
      // A statement whose target could not be read: put everything back.
      tables.add("*");
      wrote = true;
    }
  }
  return wrote ? tables : null;
}

/** A copy of every table and sequence of the seeded world, in a schema of its own. */
class Snapshot {
  private constructor(
    private readonly db: Database,
    readonly tables: readonly string[],
    readonly sequences: readonly { name: string; value: string | null }[],
  ) {}

  /** The snapshot a loaded image's database already holds (its schema came with the dump). */
  static of(db: Database, image: Pick<SandboxWorldImage, "tables" | "sequences">): Snapshot {
    return new Snapshot(db, image.tables, image.sequences);
  }

  static async take(db: Database): Promise<Snapshot> {
    const { rows: tables } = await db.sql.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const { rows: sequences } = await db.sql.query<{ name: string; value: string | null }>(
      "SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public'",
    );
    await db.sql.exec(
      [
        "CREATE SCHEMA sandbox_snapshot",
        ...tables.map(
          (t) => `CREATE TABLE sandbox_snapshot."${t.tablename}" AS TABLE public."${t.tablename}"`,
        ),
      ].join(";\n"),
    );
    return new Snapshot(
      db,
      tables.map((t) => t.tablename),
      sequences,
    );
  }

  /** Puts the written tables (every table for "*") and every sequence back as they were. */
  async restore(written: ReadonlySet<string>): Promise<void> {
    const tables = written.has("*") ? this.tables : this.tables.filter((t) => written.has(t));
    const statements = [
      "BEGIN",
      // Foreign keys are not checked while tables are put back one by one.
      "SET LOCAL session_replication_role = replica",
      ...tables.flatMap((t) => [
        `DELETE FROM public."${t}"`,
        `INSERT INTO public."${t}" SELECT * FROM sandbox_snapshot."${t}"`,
      ]),
      ...this.sequences.map((s) =>
        s.value === null
          ? `SELECT setval('public."${s.name}"', 1, false)`
          : `SELECT setval('public."${s.name}"', ${s.value}, true)`,
      ),
      "COMMIT",
    ];
    await this.db.sql.exec(statements.join(";\n"));
  }
}
