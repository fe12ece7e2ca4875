import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";

/** The surfaces whose calls are counted per calendar month (compat `api_calls.used`). */
export const API_SURFACES = ["compat", "v1", "mcp", "graphql"] as const;
export type ApiSurface = (typeof API_SURFACES)[number];

export interface ApiCallMonth {
  /** Calendar month in UTC, `YYYY-MM`. */
  month: string;
  /** Calls counted in that month on that surface for the organisation (all of its keys). */
  calls: number;
}

/** The UTC calendar month an instant falls in, `YYYY-MM`. */
export function callMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/**
 * Counts API calls per organisation, calendar month and surface. One row per month and surface,
 * incremented with a single atomic statement, so concurrent calls on several processes all count.
 * There is no monthly allowance: the count is information (compat `api_calls.used`), never a limit.
 */
export class ApiCallsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  /** Counts one call now and returns the month's total, this call included. */
  async record(organizationId: string, surface: ApiSurface): Promise<ApiCallMonth> {
    const month = callMonth(this.clock.now());
    const rows = await this.prisma.$queryRaw<{ count: number }[]>`
      INSERT INTO api_call_counts (organization_id, month, surface, count)
      VALUES (${organizationId}, ${month}, ${surface}, 1)
      ON CONFLICT (organization_id, month, surface)
      DO UPDATE SET count = api_call_counts.count + 1
      RETURNING count`;
    return { month, calls: Number(rows[0]?.count ?? 0) };
  }

  /** The calls counted so far this month (or in `month`), without counting one. */
  async count(organizationId: string, surface: ApiSurface, month?: string): Promise<ApiCallMonth> {
    const wanted = month ?? callMonth(this.clock.now());
    const row = await this.prisma.apiCallCount.findUnique({
      where: { organizationId_month_surface: { organizationId, month: wanted, surface } },
    });
    return { month: wanted, calls: row?.count ?? 0 };
  }
}
