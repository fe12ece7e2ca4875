import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import {
  activeCatalog,
  findPortEntry,
  installImportedCatalog,
  MAX_PORT_RESULTS,
  PortCatalog,
  type PortEntry,
  type PortSearchResult,
} from "./port-directory";

/** How often a process asks whether another process imported a new catalogue. */
export const PORT_CATALOG_CHECK_MS = 60_000;

/**
 * Keeps the in-memory catalogue in step with the `ports` table: loads it at start-up, then checks at
 * most once a minute (one cheap aggregate query) whether an import replaced it, so every API process
 * picks up `quayside ports import` without a restart. An empty table means the embedded set.
 */
export class PortsService {
  private signature: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  /** Reloads when the table changed since the last load. */
  refresh(): Promise<void> {
    this.inFlight ??= this.reload().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  async ensureFresh(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.checkedAt < PORT_CATALOG_CHECK_MS) return;
    await this.refresh();
  }

  private async reload(): Promise<void> {
    this.checkedAt = this.clock.now().getTime();
    const [state] = await this.prisma.$queryRaw<{ n: number; at: Date | null }[]>`
      SELECT count(*)::int AS n, max(imported_at) AS at FROM ports`;
    const signature = `${state?.n ?? 0}|${state?.at?.toISOString() ?? ""}`;
    if (signature === this.signature) return;
    if (!state || state.n === 0) {
      installImportedCatalog(null);
      this.signature = signature;
      return;
    }
    const [rows, aliases] = await Promise.all([
      this.prisma.port.findMany({
        select: {
          locode: true,
          name: true,
          city: true,
          state: true,
          country: true,
          countryCode: true,
          lat: true,
          lng: true,
          timeZone: true,
          functions: true,
        },
      }),
      this.prisma.portAlias.findMany(),
    ]);
    installImportedCatalog(new PortCatalog("unlocode", rows, aliases));
    this.signature = signature;
  }

  /** Port search (v1 GET /ports): at most 25, exact locode first, then busiest. */
  async search(query: string, limit = MAX_PORT_RESULTS): Promise<PortSearchResult> {
    await this.ensureFresh();
    const catalog = activeCatalog();
    return { source: catalog.source, ports: catalog.search(query, Math.min(limit, MAX_PORT_RESULTS)) };
  }

  /** Ports by UN/LOCODE or alias, in the order asked; null where unknown (the GraphQL dataloader). */
  async findMany(codes: readonly string[]): Promise<(PortEntry | null)[]> {
    await this.ensureFresh();
    return codes.map((code) => findPortEntry(code) ?? null);
  }
}
