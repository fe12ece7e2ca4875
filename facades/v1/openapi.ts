import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { HTTP_STATUS_TEXT } from "../../src/http/outcomes";
import { type RouteContract, SANDBOX_ONLY_ROUTES, V1_ROUTES } from "./contract/routes";
import * as S from "./contract/schemas";

/**
 * The OpenAPI 3.1 document of the v1 API, generated from the route contract and its zod schemas
 * (never written by hand). Live routes need a Bearer key; their sandbox copies under `/sandbox`
 * need none and are limited per address instead.
 */

const int = (description: string) => z.string().meta({ description, example: "60" });

/** On every answer, success or refusal (spec v1 section 8). */
const rateHeaders = {
  "X-RateLimit-Limit": int("Requests allowed in the current one-minute window."),
  "X-RateLimit-Remaining": int("Requests left in the window."),
  "X-RateLimit-Reset": int("When the window resets, unix seconds."),
};
/** Only on answers that consulted the daily allowance: never on a cached repeat. */
const lookupHeaders = {
  "X-Lookup-Limit": int("Lookups allowed per day.").optional(),
  "X-Lookup-Remaining": int("Lookups left today.").optional(),
  "X-Lookup-Reset": int("When the daily allowance resets, unix seconds.").optional(),
};
const retryAfter = (required: boolean) => ({
  "Retry-After": required
    ? int("Seconds to wait before retrying.")
    : int("Seconds to wait before retrying (when retrying can help).").optional(),
});

const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: "Missing or malformed parameter or body (`data.param` names it).",
  401: "Missing, invalid, revoked or expired API key.",
  402: "Payment required: `shipment_limit_reached` or `payment_overdue` (retrying cannot succeed).",
  403: "Developer mode off, view-only key, feature switched off or plan required.",
  404: "Not found (on tracking: the body of spec v1 section 4.1 rule 13).",
  413: "The request body is too large.",
  422: "Customer limit reached.",
  429: "Rate limit (`rate_limit_exceeded`), daily lookup limit or a call made too soon; wait `Retry-After`.",
  500: "Something went wrong on our side; it has been logged. Retry.",
  502: "The carrier or provider failed; retry after a moment.",
};

type ErrorBodies = Map<number, z.ZodType[]>;

/** Adds bodies a status may carry, each once. */
function addBodies(into: ErrorBodies, status: number, bodies: readonly z.ZodType[]): void {
  const list = into.get(status) ?? [];
  for (const body of bodies) if (!list.includes(body)) list.push(body);
  into.set(status, list);
}

/**
 * Bodies the sandbox never answers: its daily allowances and the retry-failed lock are put back
 * after every request (docs/decisions/sandbox-openapi-postman.md, "Writes change nothing").
 */
const NEVER_IN_SANDBOX: readonly z.ZodType[] = [
  S.LookupLimitErrorBody,
  S.CarrierLookupLimitErrorBody,
  S.RetryTooSoonErrorBody,
];

/** Every error status of an operation with the bodies it may carry: the route's own and admission's. */
function errorBodies(route: RouteContract, sandbox: boolean): ErrorBodies {
  const bodies: ErrorBodies = new Map();
  for (const [status, list] of Object.entries(route.errors)) {
    addBodies(
      bodies,
      Number(status),
      list.filter((b) => !(sandbox && NEVER_IN_SANDBOX.includes(b))),
    );
  }
  if (route.body) {
    addBodies(bodies, 400, [S.ErrorBody]); // malformed JSON
    addBodies(bodies, 413, [S.ErrorBody]);
  }
  if (sandbox) {
    // No key: only the per-address window; SBXU4290003 answers production's key-window 429.
    addBodies(bodies, 429, [S.SandboxRateLimitErrorBody]);
    if (route.reservedReferences) addBodies(bodies, 429, [S.RateLimitErrorBody]);
  } else {
    addBodies(bodies, 401, [S.ErrorBody]);
    addBodies(bodies, 403, [S.ErrorBody]); // developer mode off, view-only key
    addBodies(bodies, 429, [S.RateLimitErrorBody, S.AuthThrottledErrorBody]);
  }
  addBodies(bodies, 500, [S.ErrorBody]);
  for (const [status, list] of bodies) if (list.length === 0) bodies.delete(status);
  return bodies;
}

function errorResponse(status: number, route: RouteContract, bodies: readonly z.ZodType[]) {
  const headers = {
    ...rateHeaders,
    ...(status === 429 ? retryAfter(true) : status === 402 || status === 502 ? retryAfter(false) : {}),
    ...(route.lookupHeaders && (status === 429 || status === 404 || status === 502) ? lookupHeaders : {}),
  };
  return {
    description: ERROR_MEANINGS[status] ?? HTTP_STATUS_TEXT[status] ?? "Error",
    headers: z.object(headers),
    // The bodies exclude each other (each lists every key it sends): exactly one matches.
    content: {
      "application/json": {
        schema: bodies.length === 1 ? bodies[0]! : z.xor(bodies as [z.ZodType, z.ZodType, ...z.ZodType[]]),
      },
    },
  };
}

function operation(route: RouteContract, variant: { sandbox: boolean }): ZodOpenApiOperationObject {
  const responses: Record<string, unknown> = {};
  for (const [status, success] of Object.entries(route.responses)) {
    responses[status] = {
      description: success.description,
      headers: z.object({
        ...rateHeaders,
        ...(route.lookupHeaders ? lookupHeaders : {}),
        ...(route.refreshHint
          ? {
              "X-Service-Refresh-Hint": z
                .string()
                .meta({ description: "Where to read this shipment next, and when a refresh is due." }),
            }
          : {}),
      }),
      content: { "application/json": { schema: success.schema } },
    };
  }
  const errors = errorBodies(route, variant.sandbox);
  for (const status of [...errors.keys()].sort()) {
    responses[String(status)] = errorResponse(status, route, errors.get(status)!);
  }
  return {
    operationId: variant.sandbox ? `sandbox_${route.operationId}` : route.operationId,
    tags: [variant.sandbox ? "Sandbox" : route.tag],
    summary: variant.sandbox ? `Sandbox: ${route.summary}` : route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(variant.sandbox ? { security: [] } : {}),
    ...(route.params || route.query
      ? {
          requestParams: {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query } : {}),
          },
        }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            content: { "application/json": { schema: route.body.schema } },
          },
        }
      : {}),
    responses,
  } as ZodOpenApiOperationObject;
}

function addRoute(
  paths: ZodOpenApiPathsObject,
  path: string,
  route: RouteContract,
  op: ZodOpenApiOperationObject,
) {
  paths[path] = { ...paths[path], [route.method]: op };
}

/**
 * Examples where request tools look for them: on each parameter and on each JSON request body (the
 * zod schemas carry them on the schema, which tools such as the Postman converter do not read).
 */
function hoistExamples<T extends ReturnType<typeof createDocument>>(document: T): T {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { example?: unknown }>;
  type Operation = {
    parameters?: { example?: unknown; schema?: { example?: unknown } }[];
    requestBody?: {
      content?: Record<string, { example?: unknown; schema?: { $ref?: string; example?: unknown } }>;
    };
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {}) as Operation[]) {
      if (typeof operation !== "object" || operation === null) continue;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example === undefined && parameter.schema?.example !== undefined) {
          parameter.example = parameter.schema.example;
        }
      }
      const media = operation.requestBody?.content?.["application/json"];
      if (media && media.example === undefined) {
        const ref = media.schema?.$ref?.replace("#/components/schemas/", "");
        const example = ref ? schemas[ref]?.example : media.schema?.example;
        if (example !== undefined) media.example = example;
      }
    }
  }
  return document;
}

export function buildOpenApiDocument(options: { serverUrl?: string } = {}) {
  const paths: ZodOpenApiPathsObject = {};
  // Live routes need a key (401, 403 and 429 on every one); the sandbox has no key, only its
  // per-address window.
  for (const route of Object.values(V1_ROUTES) as RouteContract[]) {
    addRoute(paths, route.path, route, operation(route, { sandbox: false }));
  }
  for (const route of [
    ...Object.values(V1_ROUTES),
    ...Object.values(SANDBOX_ONLY_ROUTES),
  ] as RouteContract[]) {
    addRoute(paths, `/sandbox${route.path}`, route, operation(route, { sandbox: true }));
  }
  const anyJson = z.record(z.string(), z.unknown());
  for (const [path, summary, operationId] of [
    ["/openapi.json", "This document", "openApiDocument"],
    [
      "/postman.json",
      "A Postman collection generated from this document, with tests on every request (set `bearerToken`)",
      "postmanCollection",
    ],
  ] as const) {
    paths[path] = {
      get: {
        operationId,
        tags: ["Meta"],
        summary,
        security: [],
        responses: { 200: { description: summary, content: { "application/json": { schema: anyJson } } } },
      },
    };
  }

  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Quayside v1 API",
      version: "1.0.0",
      description:
        "Container tracking by container, bill-of-lading or booking number. Every endpoint has a keyless copy under `/sandbox` answering fixed demo data (60 requests a minute per address). Field reference: docs/decisions/README.md.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: options.serverUrl ?? "/api/v1" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Tracking", description: "Live fetches from the carrier." },
      { name: "Shipments", description: "What is stored: reads use no slot and call no carrier." },
      { name: "Carriers" },
      { name: "Lookups", description: "Ports, vessels and schedules; no slot." },
      { name: "Account" },
      { name: "Sandbox", description: "No key; fixed demo data; writes change nothing." },
      { name: "Meta" },
    ],
    paths,
    webhooks: Object.fromEntries(
      Object.entries(S.WEBHOOK_PAYLOADS).map(([event, schema]) => [
        event,
        {
          post: {
            summary: `${event} delivery`,
            description:
              'Signed with `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`; acknowledge with any 2xx within 10 s; de-duplicate on `X-Service-Delivery`.',
            requestParams: {
              header: z.object({
                "X-Service-Event": z.literal(event),
                "X-Service-Delivery": z.string().meta({ description: "Unique id of the delivery record." }),
                "X-Service-Signature": z.string().meta({ example: "t=1764000000,v1=5f2b..." }),
                "User-Agent": z.literal("Service-Webhooks/1"),
              }),
            },
            requestBody: { required: true, content: { "application/json": { schema } } },
            responses: { 200: { description: "Any 2xx acknowledges the delivery." } },
          },
        },
      ]),
    ),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key of an organisation with developer mode on.",
        },
      },
    },
  });
  return hoistExamples(document);
}

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The document with a relative server (`/api/v1`); docs search and tests read it. */
export function openApiDocument() {
  cached ??= buildOpenApiDocument();
  return cached;
}
