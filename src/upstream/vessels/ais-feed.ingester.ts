import { createReadStream } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import { type AisMessage, AisPayloadDecoder } from "./ais-decoder";
import { FragmentAssembler, readSentence } from "./nmea";

/** ITU-R M.1371 navigational status codes as text. */
export const NAVIGATION_STATUS: Readonly<Record<number, string>> = {
  0: "Under way using engine",
  1: "At anchor",
  2: "Not under command",
  3: "Restricted manoeuvrability",
  4: "Constrained by her draught",
  5: "Moored",
  6: "Aground",
  7: "Engaged in fishing",
  8: "Under way sailing",
  14: "AIS-SART active",
  15: "Not defined",
};

/**
 * The AIS feed ingester: NMEA AIVDM lines from a TCP feed (`tcp://host:port`, as AIS-catcher, rtl-ais,
 * AISHub or a coastal station relay them; reconnecting with backoff) or from a file (`file:///path`, read
 * once), decoded and kept as the last position per MMSI in `vessel_positions`. Positions are buffered and
 * written once a second in one statement, so a busy feed costs one upsert per vessel per second at most.
 * Static and voyage data (type 5, 24) is remembered per MMSI and joined to that vessel's positions.
 */

export type AisFeedSource = { kind: "tcp"; host: string; port: number } | { kind: "file"; path: string };

export function parseAisFeed(value: string): AisFeedSource {
  const tcp = /^tcp:\/\/([^:/]+|\[[^\]]+\]):(\d{1,5})\/?$/.exec(value.trim());
  if (tcp) return { kind: "tcp", host: tcp[1]!.replace(/^\[|\]$/g, ""), port: Number(tcp[2]) };
  if (value.startsWith("file://")) return { kind: "file", path: fileURLToPath(value) };
  if (value.startsWith("file:")) return { kind: "file", path: path.resolve(value.slice(5)) };
  if (/^[a-z]+:\/\//i.test(value))
    throw new Error(`unsupported AIS feed ${value}: use tcp://host:port or file:PATH`);
  return { kind: "file", path: path.resolve(value) };
}

interface StaticInfo {
  imo: string | null;
  name: string | null;
  draught: number | null;
  destination: string | null;
  eta: string | null;
}

interface PendingPosition {
  mmsi: string;
  lat: number;
  lon: number;
  speed: number | null;
  course: number | null;
  heading: number | null;
  navigationStatus: string | null;
  positionAt: Date;
}

export interface AisFeedStats {
  lines: number;
  sentences: number;
  badChecksum: number;
  malformed: number;
  notAis: number;
  droppedFragments: number;
  messages: number;
  undecoded: number;
  positions: number;
  staticReports: number;
  rowsWritten: number;
  connected: boolean;
}

const FLUSH_MS = 1_000;
const MAX_STATIC = 100_000;

const pad2 = (n: number) => String(n).padStart(2, "0");

export class AisFeedIngester {
  private readonly assembler = new FragmentAssembler();
  private readonly decoder = new AisPayloadDecoder();
  private readonly pending = new Map<string, PendingPosition>();
  private readonly statics = new Map<string, StaticInfo>();
  private readonly stats_: Omit<AisFeedStats, "droppedFragments" | "undecoded"> = {
    lines: 0,
    sentences: 0,
    badChecksum: 0,
    malformed: 0,
    notAis: 0,
    messages: 0,
    positions: 0,
    staticReports: 0,
    rowsWritten: 0,
    connected: false,
  };
  private timer: NodeJS.Timeout | null = null;
  private socket: Socket | null = null;
  private stopped = false;
  private flushing: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly deps: {
      source: AisFeedSource;
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      flushMs?: number;
      reconnectMs?: number;
    },
  ) {}

  get stats(): AisFeedStats {
    return { ...this.stats_, droppedFragments: this.assembler.dropped, undecoded: this.decoder.undecoded };
  }

  /** Starts reading. A file is read to its end (and flushed) before this resolves; TCP runs until stop. */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.flush(), this.deps.flushMs ?? FLUSH_MS);
    this.timer.unref();
    const { source } = this.deps;
    if (source.kind === "file") {
      await this.readFile(source.path);
      await this.flush();
      return;
    }
    this.connectTcp(source.host, source.port, this.deps.reconnectMs ?? 5_000);
  }

  private async readFile(file: string): Promise<void> {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    try {
      for await (const line of lines) this.ingestLine(line);
      this.deps.logger.info({ file, ...this.stats }, "AIS file ingested");
    } catch (error) {
      this.deps.logger.error({ err: error, file }, "AIS file could not be read");
    }
  }

  private connectTcp(host: string, port: number, retryMs: number): void {
    if (this.stopped) return;
    const socket = connect({ host, port });
    this.socket = socket;
    socket.setKeepAlive(true, 30_000);
    socket.once("connect", () => {
      this.stats_.connected = true;
      this.deps.logger.info({ host, port }, "AIS feed connected");
    });
    const lines = createInterface({ input: socket, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => this.ingestLine(line));
    socket.on("error", (error) => {
      this.deps.logger.warn({ err: error, host, port }, "AIS feed connection failed");
    });
    socket.once("close", () => {
      this.stats_.connected = false;
      lines.close();
      if (this.stopped) return;
      const next = Math.min(retryMs * 2, 60_000);
      setTimeout(() => this.connectTcp(host, port, next), retryMs).unref();
    });
  }

  /** One line of the feed. */
  ingestLine(line: string): void {
    if (line.trim() === "") return;
    this.stats_.lines++;
    const reading = readSentence(line);
    if (!reading.ok) {
      if (reading.reason === "bad_checksum") this.stats_.badChecksum++;
      else if (reading.reason === "malformed") this.stats_.malformed++;
      else this.stats_.notAis++;
      return;
    }
    this.stats_.sentences++;
    const group = this.assembler.push(reading.sentence, this.deps.clock.now().getTime());
    if (!group) return;
    const message = this.decoder.decode(group);
    if (message) this.apply(message);
  }

  private apply(message: AisMessage): void {
    this.stats_.messages++;
    if (message.kind === "position") {
      this.stats_.positions++;
      if (message.name) this.rememberStatic({ kind: "name", mmsi: message.mmsi, name: message.name });
      this.pending.set(message.mmsi, {
        mmsi: message.mmsi,
        lat: message.lat,
        lon: message.lon,
        speed: message.speed,
        course: message.course,
        heading: message.heading,
        navigationStatus:
          message.navigationStatus === null ? null : (NAVIGATION_STATUS[message.navigationStatus] ?? null),
        positionAt: this.deps.clock.now(),
      });
      return;
    }
    this.stats_.staticReports++;
    this.rememberStatic(message);
  }

  private rememberStatic(message: Exclude<AisMessage, { kind: "position" }>): void {
    const known = this.statics.get(message.mmsi) ?? {
      imo: null,
      name: null,
      draught: null,
      destination: null,
      eta: null,
    };
    if (message.kind === "name") known.name = message.name;
    else {
      known.imo = message.imo ?? known.imo;
      known.name = message.name ?? known.name;
      known.draught = message.draught ?? known.draught;
      known.destination = message.destination ?? known.destination;
      const eta = message.eta;
      known.eta = eta
        ? `${pad2(eta.month)}-${pad2(eta.day)}T${pad2(eta.hour)}:${pad2(eta.minute)}`
        : known.eta;
    }
    this.statics.delete(message.mmsi);
    if (this.statics.size >= MAX_STATIC) {
      const oldest = this.statics.keys().next().value;
      if (oldest !== undefined) this.statics.delete(oldest);
    }
    this.statics.set(message.mmsi, known);
  }

  /** Writes buffered positions; answers how many rows were written. Serialised with earlier flushes. */
  flush(): Promise<number> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((error) => {
        this.deps.logger.error({ err: error }, "AIS positions could not be stored");
        return 0;
      });
    return this.flushing;
  }

  private async write(): Promise<number> {
    if (this.pending.size === 0) return 0;
    const rows = [...this.pending.values()];
    this.pending.clear();
    const receivedAt = this.deps.clock.now();
    const values = rows.map((row) => {
      const known = this.statics.get(row.mmsi);
      return Prisma.sql`(${row.mmsi}, ${known?.imo ?? null}, ${known?.name ?? null}, ${row.lat}, ${row.lon},
        ${row.speed}, ${row.course}, ${row.heading}, ${row.navigationStatus}, ${known?.draught ?? null},
        ${known?.destination ?? null}, ${known?.eta ?? null}, ${row.positionAt}, ${receivedAt})`;
    });
    await this.deps.prisma.$executeRaw`
      INSERT INTO vessel_positions (mmsi, imo, name, lat, lon, speed, course, heading, navigation_status,
                                    draught, destination, eta, position_at, received_at)
      VALUES ${Prisma.join(values)}
      ON CONFLICT (mmsi) DO UPDATE SET
        imo = COALESCE(EXCLUDED.imo, vessel_positions.imo),
        name = COALESCE(EXCLUDED.name, vessel_positions.name),
        lat = EXCLUDED.lat,
        lon = EXCLUDED.lon,
        speed = EXCLUDED.speed,
        course = EXCLUDED.course,
        heading = EXCLUDED.heading,
        navigation_status = EXCLUDED.navigation_status,
        draught = COALESCE(EXCLUDED.draught, vessel_positions.draught),
        destination = COALESCE(EXCLUDED.destination, vessel_positions.destination),
        eta = COALESCE(EXCLUDED.eta, vessel_positions.eta),
        position_at = EXCLUDED.position_at,
        received_at = EXCLUDED.received_at`;
    this.stats_.rowsWritten += rows.length;
    return rows.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.socket?.destroy();
    await this.flush();
  }
}
