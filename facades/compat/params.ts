import { z } from "zod";
import type { OutcomeCode } from "../../src/http/outcomes";

/**
 * Query parameters of the compat operations (spec section 4), read with zod. Each failure names the
 * outcome it answers: a missing or malformed parameter is WRONG_PARAMETERS, a type that is not CT, BL
 * or BK (or not allowed by the operation) WRONG_TYPE, a sealine that is not a 4-character code
 * WRONG_SEALINE. Parameters the contract does not know are ignored.
 */
export type CompatType = "CT" | "BL" | "BK";

export interface TrackingParams {
  number: string;
  /** null: detect the carrier (sealine empty, `auto` or absent). */
  sealine: string | null;
  /** null: detect the type (empty or absent). */
  type: CompatType | null;
  forceUpdate: boolean;
  route: boolean;
}

export interface HistoryParams {
  number: string;
  type: CompatType;
  sealine: string | null;
  /** Present for history-by-id. */
  id: number | null;
}

export type ParamsResult<T> = { ok: true; value: T } | { ok: false; outcome: OutcomeCode; detail: string };

const fail = (outcome: OutcomeCode, detail: string) => ({ ok: false as const, outcome, detail });

/** One value: a repeated parameter is ambiguous, so it is refused rather than guessed. */
const single = (name: string) =>
  z.string({ error: `${name} must be given once, as a single value.` }).transform((v) => v.trim());

const numberSchema = single("number").pipe(
  z
    .string()
    .min(1, "number is required: a container, bill-of-lading or booking number.")
    .max(100, "number is longer than 100 characters."),
);

const booleanSchema = (name: string) =>
  single(name)
    .transform((v) => v.toLowerCase())
    .pipe(
      z.enum(["", "true", "false", "1", "0"], {
        error: `${name} must be true or false.`,
      }),
    )
    .transform((v) => v === "true" || v === "1");

// Built once: a zod schema costs more to construct than to run, and these are read on every call.
const forceUpdateSchema = booleanSchema("force_update");
const routeSchema = booleanSchema("route");
const aisSchema = booleanSchema("ais");

const typeSchema = single("type")
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(["", "CT", "BL", "BK"], { error: "type must be CT, BL or BK." }))
  .transform((v) => (v === "" ? null : v));

const sealineSchema = single("sealine")
  .transform((v) => v.toUpperCase())
  .pipe(
    z.string().regex(/^$|^AUTO$|^[A-Z0-9]{4}$/, "sealine must be a 4-character carrier code (SCAC) or auto."),
  )
  .transform((v) => (v === "" || v === "AUTO" ? null : v));

const idSchema = single("id").pipe(
  z
    .string()
    .regex(/^\d{1,10}$/, "id must be a positive integer (a history id).")
    .transform(Number)
    .pipe(z.number().int().min(1, "id must be a positive integer.").max(2_147_483_647, "id is too large.")),
);

type Query = Record<string, unknown>;

function read<T>(
  schema: z.ZodType<T>,
  query: Query,
  name: string,
  outcome: OutcomeCode,
): { ok: true; value: T | undefined } | { ok: false; outcome: OutcomeCode; detail: string } {
  if (query[name] === undefined) return { ok: true, value: undefined };
  const parsed = schema.safeParse(query[name]);
  return parsed.success ? { ok: true, value: parsed.data } : fail(outcome, parsed.error.issues[0]!.message);
}

/**
 * /tracking, /container, /reference and /route. `fixedType` is the type an operation implies
 * (/container is CT); `allowedTypes` those it accepts; `required` the parameters it cannot do without.
 */
export function parseTrackingParams(
  query: Query,
  options: {
    allowedTypes: readonly CompatType[];
    fixedType?: CompatType;
    required?: readonly ("type" | "sealine")[];
  },
): ParamsResult<TrackingParams> {
  if (query.number === undefined) {
    return fail("bad_request", "number is required: a container, bill-of-lading or booking number.");
  }
  for (const name of options.required ?? []) {
    if (query[name] === undefined) return fail("bad_request", `${name} is required by this operation.`);
  }
  const number = read(numberSchema, query, "number", "bad_request");
  if (!number.ok) return number;
  const type = options.fixedType
    ? { ok: true as const, value: null }
    : read(typeSchema, query, "type", "wrong_reference_type");
  if (!type.ok) return type;
  if (type.value && !options.allowedTypes.includes(type.value)) {
    return fail(
      "wrong_reference_type",
      `type ${type.value} is not accepted here; use ${options.allowedTypes.join(", ")}.`,
    );
  }
  if (options.required?.includes("type") && !type.value) {
    return fail("bad_request", `type is required by this operation: ${options.allowedTypes.join(", ")}.`);
  }
  const sealine = read(sealineSchema, query, "sealine", "wrong_carrier_code");
  if (!sealine.ok) return sealine;
  const forceUpdate = read(forceUpdateSchema, query, "force_update", "bad_request");
  if (!forceUpdate.ok) return forceUpdate;
  const route = read(routeSchema, query, "route", "bad_request");
  if (!route.ok) return route;
  // `ais` is accepted and ignored, but a malformed one is still a malformed request.
  const ais = read(aisSchema, query, "ais", "bad_request");
  if (!ais.ok) return ais;
  return {
    ok: true,
    value: {
      number: number.value!,
      sealine: sealine.value ?? null,
      type: options.fixedType ?? type.value ?? null,
      forceUpdate: forceUpdate.value ?? false,
      route: route.value ?? false,
    },
  };
}

/** /history and /history?id=: number and type required, sealine optional. */
export function parseHistoryParams(query: Query): ParamsResult<HistoryParams> {
  for (const name of ["number", "type"]) {
    if (query[name] === undefined) return fail("bad_request", `${name} is required by /history.`);
  }
  const id = read(idSchema, query, "id", "bad_request");
  if (!id.ok) return id;
  const number = read(numberSchema, query, "number", "bad_request");
  if (!number.ok) return number;
  const type = read(typeSchema, query, "type", "wrong_reference_type");
  if (!type.ok) return type;
  if (!type.value) return fail("bad_request", "type is required by /history: CT, BL or BK.");
  const sealine = read(sealineSchema, query, "sealine", "wrong_carrier_code");
  if (!sealine.ok) return sealine;
  return {
    ok: true,
    value: { number: number.value!, type: type.value, sealine: sealine.value ?? null, id: id.value ?? null },
  };
}

/** The core's reference type for a compat type: a booking is looked up through the bill-of-lading path. */
export function coreReferenceType(type: CompatType | null): "container" | "bl" | undefined {
  if (type === "CT") return "container";
  if (type === "BL" || type === "BK") return "bl";
  return undefined;
}
