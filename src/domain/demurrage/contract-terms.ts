import { z } from "zod";
import {
  CHARGE_TYPES,
  type ChargeType,
  CLOCK_START_RULES,
  type ClockEnd,
  type ClockStart,
  DAY_BASES,
  DIRECTIONS,
  type Direction,
  EQUIPMENT_CLASSES,
} from "./model";

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "dates are YYYY-MM-DD")
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: "not a calendar date",
    },
  );

const slab = z.object({
  fromDay: z.number().int().min(1, "slab days start at 1"),
  toDay: z.number().int().min(1).nullable(),
  rate: z.number().min(0, "a rate is not negative").max(100_000, "a rate is at most 100000 a day"),
});

/**
 * An organisation's contract terms as it states them. The clock events follow from the charge type
 * and direction (import demurrage: discharge to gate-out; detention: gate-out to empty return;
 * combined: discharge to empty return), so a contract cannot describe a clock no box has.
 */
export const ContractTermsInput = z
  .object({
    carrierScac: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2,4}$/, "carrierScac is a 2 to 4 letter SCAC")
      .nullable()
      .default(null),
    portLocode: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}[A-Z2-9]{3}$/, "portLocode is a UN/LOCODE such as USLAX")
      .nullable()
      .default(null),
    countryCode: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "countryCode is an ISO 3166-1 alpha-2 code")
      .nullable()
      .default(null),
    direction: z.enum(DIRECTIONS).default("import"),
    chargeType: z.enum(CHARGE_TYPES),
    equipment: z.enum(EQUIPMENT_CLASSES).default("any"),
    freeDays: z.number().int().min(0, "freeDays is not negative").max(365, "freeDays is at most 365"),
    freeDayBasis: z.enum(DAY_BASES),
    chargeDayBasis: z.enum(DAY_BASES).default("calendar"),
    clockStartRule: z.enum(CLOCK_START_RULES).default("next_day"),
    slabs: z.array(slab).min(1, "at least one rate slab").max(20, "at most 20 rate slabs"),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, "currency is an ISO 4217 code such as USD"),
    effectiveFrom: isoDate,
    effectiveTo: isoDate.nullable().default(null),
    note: z.string().trim().max(500, "note is at most 500 characters").nullable().default(null),
  })
  .superRefine((t, ctx) => {
    if (t.portLocode && t.countryCode && !t.portLocode.startsWith(t.countryCode)) {
      ctx.addIssue({ code: "custom", message: "portLocode is not in countryCode", path: ["portLocode"] });
    }
    if (t.effectiveTo !== null && t.effectiveTo < t.effectiveFrom) {
      ctx.addIssue({ code: "custom", message: "effectiveTo is before effectiveFrom", path: ["effectiveTo"] });
    }
    // Slabs run on from day 1 without gaps or overlaps; only the last may be open.
    let next = 1;
    t.slabs.forEach((s, i) => {
      const last = i === t.slabs.length - 1;
      if (s.fromDay !== next) {
        ctx.addIssue({
          code: "custom",
          message: `slab ${i + 1} must start on day ${next}`,
          path: ["slabs", i],
        });
      }
      if (s.toDay === null && !last) {
        ctx.addIssue({ code: "custom", message: "only the last slab may be open", path: ["slabs", i] });
      }
      if (s.toDay !== null && s.toDay < s.fromDay) {
        ctx.addIssue({ code: "custom", message: `slab ${i + 1} ends before it starts`, path: ["slabs", i] });
      }
      next = (s.toDay ?? s.fromDay) + 1;
    });
  });
export type ContractTerms = z.output<typeof ContractTermsInput>;

export function clockEventsOf(
  direction: Direction,
  chargeType: ChargeType,
): { start: ClockStart; end: ClockEnd } {
  if (direction === "export") {
    return chargeType === "demurrage"
      ? { start: "GTIN_FULL", end: "LOAD" }
      : chargeType === "detention"
        ? { start: "GTOT", end: "EMPTY_RETURN" }
        : { start: "GTOT", end: "LOAD" };
  }
  return chargeType === "demurrage"
    ? { start: "DISC", end: "GTOT" }
    : chargeType === "detention"
      ? { start: "GTOT", end: "EMPTY_RETURN" }
      : { start: "DISC", end: "EMPTY_RETURN" };
}

/** The first problem of invalid terms, as one sentence naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length && i.code !== "custom" ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}
