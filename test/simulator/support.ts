/**
 * Shared fixtures for the simulator tests: a validator built from the resolved DCSA T&T 2.2 document,
 * facts read straight from shared/reference/world.md, and helpers to talk to a running simulator.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import ContainerValidator from "container-validator";
import { parse } from "yaml";
import { containerPrefixesOf } from "../../simulator/world/carrier-profiles";
import { containerNumber, isIssuableSerial } from "../../simulator/world/iso6346";
import { CARRIERS, type Carrier } from "../../src/domain/carriers/carrier-directory";

export const SHARED = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared");
const TNT_SPEC = resolve(
  SHARED,
  "reference/dcsa/Conformance-Gateway/tnt/src/main/resources/standards/tnt/schemas/TNT_v2.2.0-resolved.yaml",
);
export const TNT_EXAMPLES = resolve(
  SHARED,
  "reference/dcsa/Conformance-Gateway/tnt/src/main/resources/standards/tnt/messages",
);

type JsonSchema = Record<string, unknown>;

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> }>
  >;
  components: { schemas: Record<string, JsonSchema> };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface TntValidator {
  /** Validates a 200 body of GET /v2/events; returns the problems found (empty when valid). */
  events(body: unknown): string[];
  /** Validates an error body against the 2.2 error schema. */
  error(body: unknown): string[];
}

function describe(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

/**
 * The 2.2 schemas combine `allOf` fragments without `additionalProperties: false`, so a misspelt field
 * would pass them. This walks the declared properties (through $ref and allOf) and reports any field the
 * standard does not define.
 */
class DeclaredFields {
  private readonly cache = new Map<JsonSchema, Map<string, JsonSchema[]>>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {}

  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    return typeof ref === "string" ? (this.schemas[ref.replace("#/components/schemas/", "")] ?? {}) : schema;
  }

  /** Every declaration of every property of a schema, through allOf. */
  declarations(schema: JsonSchema): Map<string, JsonSchema[]> {
    const resolved = this.resolve(schema);
    const cached = this.cache.get(resolved);
    if (cached) return cached;
    const found = new Map<string, JsonSchema[]>();
    for (const [name, property] of Object.entries(
      (resolved.properties ?? {}) as Record<string, JsonSchema>,
    )) {
      found.set(name, [...(found.get(name) ?? []), this.resolve(property)]);
    }
    for (const part of (resolved.allOf ?? []) as JsonSchema[]) {
      for (const [name, list] of this.declarations(part))
        found.set(name, [...(found.get(name) ?? []), ...list]);
    }
    this.cache.set(resolved, found);
    return found;
  }

  /** The declaration that describes a field's structure (an object or array), if any. */
  private structure(declared: readonly JsonSchema[]): JsonSchema | undefined {
    const direct = declared.find((s) => s.properties || s.items || s.allOf);
    return (
      direct ??
      declared
        .flatMap((s) => ((s.allOf ?? []) as JsonSchema[]).map((p) => this.resolve(p)))
        .find((s) => s.properties || s.allOf)
    );
  }

  undeclared(value: unknown, schema: JsonSchema | undefined, path: string): string[] {
    if (!schema || value === null || typeof value !== "object") return [];
    const resolved = this.resolve(schema);
    if (Array.isArray(value)) {
      const items = resolved.items as JsonSchema | undefined;
      return value.flatMap((item, index) => this.undeclared(item, items, `${path}/${index}`));
    }
    const declared = this.declarations(resolved);
    const problems: string[] = [];
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      const childSchemas = declared.get(name);
      if (!childSchemas) problems.push(`${path}/${name} is not a field of the DCSA 2.2 schema`);
      else problems.push(...this.undeclared(child, this.structure(childSchemas), `${path}/${name}`));
    }
    return problems;
  }
}

let cached: TntValidator | undefined;

export function tntValidator(): TntValidator {
  if (cached) return cached;
  const document = parse(readFileSync(TNT_SPEC, "utf8")) as OpenApiDocument;
  const ajv = new Ajv({ strict: false });
  const fields = new DeclaredFields(document.components.schemas);
  addFormats(ajv);
  // The 2.2 error schema spells its date format "$date-time"; treat it as the date-time it means.
  ajv.addFormat("$date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i);
  ajv.addSchema({ $id: "tnt", components: document.components } as JsonSchema);
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"tnt#/components/'));
  const operation = document.paths["/v2/events"]?.get;
  const ok = operation?.responses["200"]?.content["application/json"]?.schema;
  const failure = operation?.responses.default?.content["application/json"]?.schema;
  if (!ok || !failure) throw new Error("GET /v2/events responses not found in the 2.2 document");
  const validateEvents = ajv.compile(rewrite(ok) as JsonSchema);
  const validateError = ajv.compile(rewrite(failure) as JsonSchema);
  const byType: Record<string, ValidateFunction> = {
    TRANSPORT: ajv.getSchema("tnt#/components/schemas/transportEvent") as ValidateFunction,
    SHIPMENT: ajv.getSchema("tnt#/components/schemas/shipmentEvent") as ValidateFunction,
    EQUIPMENT: ajv.getSchema("tnt#/components/schemas/equipmentEvent") as ValidateFunction,
  };
  const typeSchema: Record<string, string> = {
    TRANSPORT: "transportEvent",
    SHIPMENT: "shipmentEvent",
    EQUIPMENT: "equipmentEvent",
  };
  cached = {
    events(body) {
      if (!validateEvents(body)) return describe(validateEvents);
      const problems: string[] = [];
      (body as Record<string, unknown>[]).forEach((event, index) => {
        // The response's anyOf accepts an event matching any of the three; check it against its own type.
        const type = String(event.eventType);
        const validate = byType[type];
        if (!validate) {
          problems.push(`/${index}/eventType ${type} is not a 2.2 event type`);
          return;
        }
        if (!validate(event)) problems.push(...describe(validate).map((p) => `/${index}${p}`));
        problems.push(
          ...fields.undeclared(event, document.components.schemas[typeSchema[type] ?? ""], `/${index}`),
        );
      });
      return problems;
    },
    error(body) {
      return validateError(body) ? [] : describe(validateError);
    },
  };
  return cached;
}

// --- Meaning beyond the schema ----------------------------------------------------------------

let unLocodes: ReadonlySet<string> | undefined;

/** Every UN/LOCODE of the 2024 list in shared/data/unlocode. */
export function unLocodeList(): ReadonlySet<string> {
  if (unLocodes) return unLocodes;
  const directory = resolve(SHARED, "data/unlocode/countries");
  const codes = new Set<string>();
  for (const file of readdirSync(directory)) {
    for (const line of readFileSync(resolve(directory, file), "latin1").split("\n")) {
      const [country, location] = line.split(",", 2);
      if (country && location && country.length === 2 && location.length === 3)
        codes.add(`${country}${location}`);
    }
  }
  unLocodes = codes;
  return codes;
}

export function isValidImo(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(imo[i]) * (7 - i);
  return sum % 10 === Number(imo[6]);
}

export function isValidContainerNumber(value: string): boolean {
  return new ContainerValidator().isValid(value);
}

/**
 * What the Conformance Gateway's "wrong attribute values" case checks and a schema cannot: codes that
 * exist (UN/LOCODE), check digits that hold (IMO, ISO 6346) and event IDs that identify.
 */
export function semanticProblems(events: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  const codes = unLocodeList();
  const seen = new Set<unknown>();
  events.forEach((event, index) => {
    if (typeof event.eventID !== "string") problems.push(`/${index} has no eventID`);
    else if (seen.has(event.eventID)) problems.push(`/${index} repeats eventID ${event.eventID}`);
    seen.add(event.eventID);
    const call = event.transportCall as Record<string, unknown> | undefined;
    const location = event.eventLocation as Record<string, unknown> | undefined;
    const callLocation = call?.location as Record<string, unknown> | undefined;
    for (const code of [call?.UNLocationCode, location?.UNLocationCode, callLocation?.UNLocationCode]) {
      if (code !== undefined && !codes.has(String(code)))
        problems.push(`/${index} UN/LOCODE ${String(code)} does not exist`);
    }
    const vessel = call?.vessel as Record<string, unknown> | undefined;
    if (vessel && !isValidImo(String(vessel.vesselIMONumber))) {
      problems.push(`/${index} IMO number ${String(vessel.vesselIMONumber)} fails its check digit`);
    }
    if (event.equipmentReference !== undefined && !isValidContainerNumber(String(event.equipmentReference))) {
      problems.push(`/${index} container ${String(event.equipmentReference)} fails ISO 6346`);
    }
  });
  return problems;
}

// --- world.md ----------------------------------------------------------------------------------

const WORLD = readFileSync(resolve(SHARED, "reference/world.md"), "utf8");

function section(title: string): string {
  const start = WORLD.indexOf(title);
  const end = WORLD.indexOf("\n## ", start + title.length);
  return WORLD.slice(start, end < 0 ? undefined : end);
}

/** Every UN/LOCODE named in world.md §1 (ports) and §2 (rotations). */
export const WORLD_PORT_CODES: ReadonlySet<string> = new Set(
  [section("## 1."), section("## 2.")].flatMap((text) => text.match(/\b[A-Z]{2}[A-Z2-9]{3}\b/g) ?? []),
);

/** IMO number to name for the vessels of world.md §3. */
export const WORLD_VESSELS: ReadonlyMap<string, string> = new Map(
  [...section("## 3.").matchAll(/^\| [^|]+ \| ([^|]+?) \| (\d{7}) \|/gm)].map((m) => [
    m[2] ?? "",
    m[1] ?? "",
  ]),
);

// --- references ----------------------------------------------------------------------------------

export function carrier(scac: string): Carrier {
  const found = CARRIERS.find((c) => c.scac === scac);
  if (!found) throw new Error(`No carrier ${scac}`);
  return found;
}

/** Container numbers of a carrier's own number space, spread over it and all issuable. */
export function containersOf(scac: string, count: number, salt = 0): string[] {
  const prefixes = containerPrefixesOf(carrier(scac));
  const numbers: string[] = [];
  for (let i = 0; numbers.length < count; i++) {
    const prefix = prefixes[(i + salt) % prefixes.length] ?? "";
    const serial = (i * 104_729 + salt * 7_919 + 31_337) % 1_000_000;
    if (isIssuableSerial(prefix, serial)) numbers.push(containerNumber(prefix, serial));
  }
  return numbers;
}

/** DCSA carriers of the directory, plus a few that only the simulator serves. */
export const SAMPLE_SCACS = [
  "MSCU",
  "MAEU",
  "CMDU",
  "HLCU",
  "ONEY",
  "EGLV",
  "YMLU",
  "ZIMU",
  "COSU",
  "OOLU",
  "WHLC",
  "PCIU",
];

// --- HTTP --------------------------------------------------------------------------------------

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export async function getJson<T = unknown>(url: string, init?: RequestInit): Promise<JsonResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: body as T };
}

export function eventsUrl(base: string, scac: string, query: Record<string, string>): string {
  return `${base}/${scac}/v2/events?${new URLSearchParams(query)}`;
}

export type AnyEvent = Record<string, unknown> & {
  eventType: string;
  eventClassifierCode: string;
  eventDateTime: string;
  eventCreatedDateTime: string;
};

/** The code of an event whatever its type (ARRI, LOAD, CONF...). */
export function codeOf(event: AnyEvent): string {
  return String(event.transportEventTypeCode ?? event.equipmentEventTypeCode ?? event.shipmentEventTypeCode);
}
