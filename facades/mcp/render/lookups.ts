import { z } from "zod";
import type { AllowanceFragment } from "../../generated/operations";

/** The key's daily vessel-and-schedule lookup allowance, shared with the REST lookups. */
export const allowanceShape = z
  .object({
    limit: z.number().int().describe("Vessel and schedule lookups a day for this key"),
    remaining: z.number().int(),
    resetAt: z.string().describe("The next UTC midnight, ISO 8601"),
  })
  .nullable()
  .describe("The daily lookup allowance after this answer; null when served from the cache (free)");

export const renderAllowance = (a: AllowanceFragment | null) =>
  a ? { limit: a.limit, remaining: a.remaining, resetAt: a.resetAt } : null;
