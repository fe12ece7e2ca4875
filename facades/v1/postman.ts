import { z } from "zod";
import { type RouteContract, SANDBOX_ONLY_ROUTES, V1_ROUTES } from "./contract/routes";
import * as S from "./contract/schemas";
import type { buildOpenApiDocument } from "./openapi";

type Document = ReturnType<typeof buildOpenApiDocument>;

/** The parts of a Postman v2.1 collection this module reads or writes. */
interface Variable {
  key: string;
  value: string;
  type?: string;
  description?: string;
}
interface QueryParam {
  key: string;
  value: string;
  disabled?: boolean;
}
interface Request {
  method: string;
  url: { path?: string[]; query?: QueryParam[]; variable?: Variable[] };
  body?: { mode?: string; raw?: string };
}
interface Item {
  name: string;
  item?: Item[];
  request?: Request;
  event?: { listen: "test" | "prerequest"; script: { type: string; exec: string[] } }[];
  auth?: unknown;
}
export interface PostmanCollection {
  info: { name: string; schema: string; description?: unknown };
  item: Item[];
  variable: Variable[];
  auth?: unknown;
  event?: Item["event"];
}

/**
 * Live folders run in this order: tracking creates the shipments every later request reads, reads come
 * next, and Shipments (whose last request untracks the shipment) ends the live part. Folders the list
 * does not name go before Shipments.
 */
const FOLDER_ORDER = [
  "Tracking",
  "Account",
  "Carriers",
  "Lookups",
  "Disruptions",
  "Partners",
  "Shipments",
  "Meta",
  "Sandbox",
];

/** Variables a live request reads, set by an earlier request's test script. */
const SHIPMENT_ID = "shipmentId";
const DISRUPTION_ID = "disruptionId";
const WEBHOOK_URL = "webhookUrl";
const PARTNER_SOURCE_ID = "partnerSourceId";
/**
 * The sandbox allows 60 requests a minute per address and a plan its own window, and the collection
 * holds more requests than that: run whole in Postman's runner or newman, its last requests would meet
 * 429. So every answer that leaves no request in its window notes when the window reopens
 * (`X-RateLimit-Reset`, unix seconds, less the answer's own `Date`: the server's clock, not the
 * runner's), and the next request waits that long before it is sent (the script sandbox keeps a
 * request back until its timers have run).
 */
const RESUME_AT = "rateWindowWaitMs";
const PACING: NonNullable<Item["event"]> = [
  {
    listen: "prerequest",
    script: {
      type: "text/javascript",
      exec: [
        `const wait = Number(pm.collectionVariables.get("${RESUME_AT}") || 0);`,
        "if (wait > 0) setTimeout(() => {}, Math.min(wait + 250, 61000));",
      ],
    },
  },
  {
    listen: "test",
    script: {
      type: "text/javascript",
      exec: [
        'const remaining = pm.response.headers.get("X-RateLimit-Remaining");',
        'const reset = Number(pm.response.headers.get("X-RateLimit-Reset")) * 1000;',
        'const answered = Date.parse(pm.response.headers.get("Date") || "");',
        `pm.collectionVariables.set("${RESUME_AT}", remaining === "0" && reset > answered ? String(reset - answered) : "0");`,
      ],
    },
  },
];
/** The partner routes that name a source: live, the one the run's create request made. */
const PARTNER_SOURCE_ROUTES = ["rotatePartnerSourceSecret", "postPartnerEvents", "removePartnerSource"];

/**
 * The collection, one folder per tag, converted from the OpenAPI document with openapi-to-postmanv2,
 * then made runnable as shipped (docs/decisions/sandbox-openapi-postman.md, "Postman"): live requests
 * target the shipment the first request tracks (variables set by test scripts), the delete comes
 * last, and every request carries tests generated from the route contract, so newman fails on an
 * answer the contract does not give that request.
 */
export async function postmanCollection(document: Document): Promise<PostmanCollection> {
  // Loaded on the first request for the collection: the converter and its dependencies are a large
  // part of the module graph, and nothing at start-up needs them.
  const { default: Converter } = await import("openapi-to-postmanv2");
  const converted = await new Promise<PostmanCollection>((resolve, reject) => {
    Converter.convert(
      { type: "json", data: structuredClone(document) },
      { folderStrategy: "Tags", requestParametersResolution: "Example", includeAuthInfoInExample: false },
      (error, result) => {
        if (error) return reject(new Error(error.message));
        if (!result) return reject(new Error("the OpenAPI document did not convert"));
        if (!result.result || !result.output?.[0]) {
          return reject(new Error(`the OpenAPI document did not convert: ${result.reason ?? "no output"}`));
        }
        resolve(result.output[0].data as PostmanCollection);
      },
    );
  });
  return makeRunnable(converted);
}

function makeRunnable(collection: PostmanCollection): PostmanCollection {
  const trackContainer = exampleOf(V1_ROUTES.trackContainer.params, "number");
  const webhookExample = (SANDBOX_ONLY_ROUTES.fireWebhook.body.schema.meta()?.example ?? {}) as {
    url?: string;
  };
  collection.variable = [
    ...collection.variable.filter((v) => v.key === "baseUrl"),
    { key: "bearerToken", value: "", type: "string", description: "Your API key (live folders)." },
    {
      key: SHIPMENT_ID,
      value: trackContainer,
      type: "string",
      description: "The shipment live requests read: set from the first request's answer.",
    },
    {
      key: DISRUPTION_ID,
      value: exampleOf(V1_ROUTES.readDisruption.params, "id"),
      type: "string",
      description: "Set from the live disruption list's first row.",
    },
    {
      key: PARTNER_SOURCE_ID,
      value: exampleOf(V1_ROUTES.removePartnerSource.params, "id"),
      type: "string",
      description: "The partner source live requests use: set from the create request's answer.",
    },
    {
      key: WEBHOOK_URL,
      value: webhookExample.url ?? "",
      type: "string",
      description: "Where the sandbox's sample webhook goes: a public https URL you can watch.",
    },
  ];
  const rank = (name: string) => {
    const at = FOLDER_ORDER.indexOf(name);
    return at === -1 ? FOLDER_ORDER.indexOf("Shipments") - 0.5 : at;
  };
  collection.item.sort((a, b) => rank(a.name) - rank(b.name));
  collection.variable.push({
    key: RESUME_AT,
    value: "0",
    type: "string",
    description: "Set by the collection's scripts: how long to wait for the rate window that ran out (ms).",
  });
  collection.event = PACING;

  const gates = new Set<string>();
  for (const folder of collection.item) {
    const sandbox = folder.name === "Sandbox";
    if (sandbox) folder.auth = { type: "noauth" };
    folder.item?.sort((a, b) => requestRank(a) - requestRank(b));
    for (const item of folder.item ?? []) {
      if (!item.request) continue;
      const found = routeOf(item.request);
      if (found && !found.sandbox) liveValues(found.name, item.request);
      if (found?.name === "fireWebhook")
        setBody(item.request, { ...webhookExample, url: `{{${WEBHOOK_URL}}}` });
      const lines = found
        ? routeTests(found.name, found.route, item.request, { sandbox: found.sandbox, gates })
        : metaTests(item.request);
      item.event = [{ listen: "test", script: { type: "text/javascript", exec: lines } }];
    }
  }
  return collection;
}

/** Reads first, then writes, then deletes (a deeper path first: the share link before its shipment). */
function requestRank(item: Item): number {
  const method = item.request?.method.toUpperCase();
  const depth = item.request?.url.path?.length ?? 0;
  if (method === "GET") return 0;
  if (method === "DELETE") return 10 - depth / 10;
  return 5;
}

function exampleOf(schema: z.ZodObject, key: string): string {
  const field = schema.shape[key] as z.ZodType | undefined;
  const example = field?.meta()?.example;
  if (typeof example !== "string") throw new Error(`no example for ${key}`);
  return example;
}

function setBody(request: Request, body: unknown): void {
  request.body = { ...request.body, mode: "raw", raw: JSON.stringify(body, null, 2) };
}

/** Live requests target what exists for the caller: the shipment tracked first, not a sandbox id. */
function liveValues(name: string, request: Request): void {
  for (const variable of request.url.variable ?? []) {
    if (variable.key === "id") {
      variable.value =
        name === "readDisruption"
          ? `{{${DISRUPTION_ID}}}`
          : PARTNER_SOURCE_ROUTES.includes(name)
            ? `{{${PARTNER_SOURCE_ID}}}`
            : `{{${SHIPMENT_ID}}}`;
    }
  }
  if (name === "postPartnerEvents") {
    // The sample event, about the shipment the run tracked (a second run's copy is a duplicate).
    const example = V1_ROUTES.postPartnerEvents.body.schema.meta()?.example as {
      events: Record<string, unknown>[];
    };
    setBody(request, {
      events: example.events.map(({ shipment_id: _sandbox, ...event }) => ({
        ...event,
        reference: `{{${SHIPMENT_ID}}}`,
      })),
    });
  }
  if (name === "retryFailed") setBody(request, { shipment_ids: [`{{${SHIPMENT_ID}}}`] });
  if (name === "listDisruptions") {
    // Every active disruption, so the read after it gets an id that exists; the filters stay, off.
    for (const q of request.url.query ?? []) {
      if (!["status", "page", "page_size"].includes(q.key)) q.disabled = true;
    }
  }
}

const ROUTES: [string, RouteContract, boolean][] = [
  ...Object.entries(V1_ROUTES).flatMap(([name, route]): [string, RouteContract, boolean][] => [
    [name, route, false],
    [name, route, true],
  ]),
  ...Object.entries(SANDBOX_ONLY_ROUTES).map(([name, route]): [string, RouteContract, boolean] => [
    name,
    route,
    true,
  ]),
];

function routeOf(request: Request): { name: string; route: RouteContract; sandbox: boolean } | undefined {
  const path = `/${(request.url.path ?? []).map((s) => s.replace(/^:(\w+)$/, "{$1}")).join("/")}`;
  for (const [name, route, sandbox] of ROUTES) {
    if (route.method.toUpperCase() !== request.method.toUpperCase()) continue;
    if ((sandbox ? `/sandbox${route.path}` : route.path) === path) return { name, route, sandbox };
  }
  return undefined;
}

type DocumentedKeys = { top: string[]; data?: { list: boolean; keys: string[] } };

/**
 * The keys every success body carries, at the top and in `data` (or each `data` row). A body of
 * several exclusive shapes (the shipment list's page and delta modes) carries those they share.
 */
function documentedKeys(schema: z.ZodType): DocumentedKeys {
  type Json = {
    $ref?: string;
    type?: string;
    required?: string[];
    properties?: Record<string, Json>;
    items?: Json;
    oneOf?: Json[];
    definitions?: Record<string, Json>;
  };
  const root = z.toJSONSchema(schema, { target: "draft-7", io: "output", unrepresentable: "any" }) as Json;
  const resolve = (node: Json | undefined): Json | undefined =>
    node?.$ref ? resolve(root.definitions?.[node.$ref.replace("#/definitions/", "")]) : node;
  const shapes = resolve(root)!.oneOf?.map((branch) => keysOf(resolve(branch)!)) ?? [keysOf(resolve(root)!)];
  const shared = (lists: string[][]) => lists.reduce((a, b) => a.filter((k) => b.includes(k)));
  const first = shapes[0]!;
  const data = shapes.every((s) => s.data && s.data.list === first.data?.list)
    ? { list: first.data!.list, keys: shared(shapes.map((s) => s.data!.keys)) }
    : undefined;
  return { top: shared(shapes.map((s) => s.top)), ...(data ? { data } : {}) };

  function keysOf(body: Json): DocumentedKeys {
    const data = resolve(body.properties?.data);
    const top = (body.required ?? []).filter((k) => k !== "success");
    if (data?.type === "object") return { top, data: { list: false, keys: data.required ?? [] } };
    const row = resolve(data?.items);
    if (data?.type === "array" && row?.type === "object")
      return { top, data: { list: true, keys: row.required ?? [] } };
    return { top };
  }
}

const js = (value: unknown) => JSON.stringify(value);

/** `data.error` of the refusals a live request may meet for a reason of the caller's, from their bodies. */
const GATE_REFUSALS = [
  S.PlanRequiredErrorBody.shape.data.shape.error.value,
  S.FeatureDisabledErrorBody.shape.data.shape.error.value,
];
const RETRY_TOO_SOON = S.RetryTooSoonErrorBody.shape.data.shape.error.value;
const REFRESH_TOO_SOON = S.RefreshTooSoonErrorBody.shape.data.shape.error.value;
const DISRUPTION_NOT_FOUND = S.DisruptionNotFoundErrorBody.shape.data.shape.error.value;

/**
 * The test script of one contract request. Live answers that depend on the caller's plan (a gated
 * feature) accept the documented refusal, but every request of one feature must answer alike in a run.
 */
function routeTests(
  name: string,
  route: RouteContract,
  request: Request,
  context: { sandbox: boolean; gates: Set<string> },
): string[] {
  const { sandbox } = context;
  const statuses = Object.keys(route.responses).map(Number);
  const retryTooSoon = !sandbox && name === "retryFailed";
  // The run tracked the shipment moments before (the sandbox's world was synced at its frozen
  // moment): a refresh is inside the refresh gap, and the refusal is what the request shows.
  const refreshTooSoon = name === "refreshShipment";
  const gate = !sandbox && route.feature ? route.feature : undefined;
  const query = Object.fromEntries(
    (request.url.query ?? []).filter((q) => !q.disabled).map((q) => [q.key, q.value]),
  );
  const full = query.include === "full";
  const keys = documentedKeys(route.responses[statuses[0] as 200]!.schema);
  const lines = [
    `// Generated from the v1 route contract: ${route.method.toUpperCase()} ${sandbox ? "/sandbox" : ""}${route.path}.`,
    "const code = pm.response.code;",
    "let answer = {};",
    'pm.test("answers JSON", () => { pm.response.to.be.json; answer = pm.response.json(); });',
  ];
  const refusals: string[] = [];
  if (gate) {
    refusals.push(
      `if (code === 403) {`,
      `  pm.test(${js(`a 403 is the plan or switch refusal for ${gate}`)}, () => {`,
      `    pm.expect(answer.success).to.equal(false);`,
      `    pm.expect(answer.data.error).to.be.oneOf(${js(GATE_REFUSALS)});`,
      `    pm.expect(answer.data.feature).to.equal(${js(gate)});`,
      `  });`,
      `}`,
    );
    const variable = `access_${gate}`;
    const first = !context.gates.has(gate);
    context.gates.add(gate);
    refusals.push(
      `const access = code === 403 ? String(answer.data && answer.data.error) : "open";`,
      first
        ? `pm.collectionVariables.set(${js(variable)}, access);`
        : `pm.test(${js(`answers like the first ${gate} request of this run`)}, () => pm.expect(access).to.equal(pm.collectionVariables.get(${js(variable)})));`,
    );
  }
  if (retryTooSoon) {
    refusals.push(
      "if (code === 429) {",
      '  pm.test("a 429 is the one-call-per-15-minutes refusal (a repeat run)", () => {',
      `    pm.expect(answer.data.error).to.equal(${js(RETRY_TOO_SOON)});`,
      '    pm.response.to.have.header("Retry-After");',
      "  });",
      "}",
    );
  }
  if (refreshTooSoon) {
    refusals.push(
      "if (code === 429) {",
      '  pm.test("a 429 is the refresh limit: the carrier answered less than one refresh gap ago", () => {',
      `    pm.expect(answer.data.error).to.equal(${js(REFRESH_TOO_SOON)});`,
      '    pm.response.to.have.header("Retry-After");',
      "    pm.expect(Date.parse(answer.data.next_refresh_eligible_at)).to.be.above(0);",
      "  });",
      "}",
    );
  }
  const noneListed = !sandbox && name === "readDisruption";
  if (noneListed) {
    refusals.push(
      "if (code === 404) {",
      '  pm.test("a 404 only when the list before had no disruption", () => {',
      `    pm.expect(answer.data.error).to.equal(${js(DISRUPTION_NOT_FOUND)});`,
      '    pm.expect(pm.collectionVariables.get("disruptionsListed")).to.equal("0");',
      "  });",
      "}",
    );
  }
  const accepted = [
    ...statuses,
    ...(gate ? [403] : []),
    ...(retryTooSoon || refreshTooSoon ? [429] : []),
    ...(noneListed ? [404] : []),
  ];
  lines.push(
    name === "fireWebhook"
      ? // The one request that leaves the machine: offline, or with a private URL, the target is refused.
        `pm.test("answers ${accepted[0]}", () => pm.expect(code, "a 400 on url: set the webhookUrl variable to a public https URL you can reach").to.equal(${accepted[0]}));`
      : accepted.length === 1
        ? `pm.test("answers ${accepted[0]}", () => pm.expect(code).to.equal(${accepted[0]}));`
        : `pm.test("answers ${accepted.join(" or ")}", () => pm.expect(code).to.be.oneOf(${js(accepted)}));`,
    ...refusals,
  );

  const success = [
    'pm.test("says success in the v1 envelope", () => pm.expect(answer.success).to.equal(true));',
    sandbox && !full
      ? 'pm.test("says sandbox", () => pm.expect(answer.mode).to.equal("sandbox"));'
      : 'pm.test("carries no sandbox mode", () => pm.expect(answer).to.not.have.property("mode"));',
  ];
  if (sandbox && route.write) {
    success.push('pm.test("says nothing was kept", () => pm.expect(answer.persisted).to.equal(false));');
  }
  if (keys.top.length > 0) {
    success.push(
      `pm.test("carries its documented fields", () => pm.expect(answer).to.include.all.keys(${js(keys.top)}));`,
    );
  }
  if (keys.data && keys.data.keys.length > 0) {
    success.push(
      keys.data.list
        ? `pm.test("every row carries its documented fields", () => answer.data.forEach((row) => pm.expect(row).to.include.all.keys(${js(keys.data.keys)})));`
        : `pm.test("data carries its documented fields", () => pm.expect(answer.data).to.include.all.keys(${js(keys.data.keys)}));`,
    );
  }
  success.push(...routeChecks(name, request, { sandbox, full, query }));
  const guard =
    accepted.length > statuses.length ? `if (${statuses.map((s) => `code === ${s}`).join(" || ")}) {` : "{";
  lines.push(guard, ...success.map((l) => `  ${l}`), "}");
  return lines;
}

/** What the answer must say about this request's own values: the reference asked for, and so on. */
function routeChecks(
  name: string,
  request: Request,
  context: { sandbox: boolean; full: boolean; query: Record<string, string> },
): string[] {
  const { sandbox, full, query } = context;
  const pathValue = (key: string) => request.url.variable?.find((v) => v.key === key)?.value ?? "";
  const shipment = sandbox ? js(pathValue("id")) : `pm.collectionVariables.get(${js(SHIPMENT_ID)})`;
  const isShipment = (expr: string) => `[${expr}.name, ${expr}.reference_number]).to.include(${shipment})`;
  switch (name) {
    case "trackContainer":
    case "trackBillOfLading": {
      const lines = [
        `pm.test("tracks the reference asked for", () => pm.expect(answer.data.reference_number).to.equal(${js(pathValue("number"))}));`,
      ];
      if (query.sealine) {
        lines.push(
          `pm.test("with the carrier asked for", () => pm.expect(answer.data.sealine).to.equal(${js(query.sealine)}));`,
        );
      }
      if (!sandbox && name === "trackContainer") {
        // Where to read it next (X-Service-Refresh-Hint `read=`): the id every later request uses.
        lines.push(
          'const read = /read=\\/api\\/v1\\/shipments\\/([^;\\s]+)/.exec(pm.response.headers.get("X-Service-Refresh-Hint") || "");',
          'pm.test("says where to read the shipment", () => pm.expect(read).to.not.equal(null));',
          `if (read) pm.collectionVariables.set(${js(SHIPMENT_ID)}, decodeURIComponent(read[1]));`,
        );
      }
      return lines;
    }
    case "trackBulk": {
      const count =
        (JSON.parse(request.body?.raw ?? "{}") as { shipments?: unknown[] }).shipments?.length ?? 0;
      return [
        `pm.test("one result per item, every one tracked", () => { pm.expect(answer.results).to.have.lengthOf(${count}); answer.results.forEach((r) => pm.expect(r.ok, r.number).to.equal(true)); pm.expect(answer.failed).to.equal(0); });`,
      ];
    }
    case "listShipments":
      return sandbox
        ? ['pm.test("lists shipments", () => pm.expect(answer.data).to.not.be.empty);']
        : [
            `pm.test("lists the shipment tracked first", () => pm.expect(answer.data.map((s) => s.name)).to.include(${shipment}));`,
          ];
    case "readShipment":
      return [
        `pm.test("is the shipment asked for", () => pm.expect(${isShipment("answer.data")});`,
        ...(full
          ? [
              'pm.test("with its stored document", () => { pm.expect(answer.data.mode).to.equal("stored"); pm.expect(answer.data.document).to.be.an("object"); });',
            ]
          : []),
      ];
    case "updateShipment": {
      const body = JSON.parse(request.body?.raw ?? "{}") as { customer?: string };
      return [
        `pm.test("is the shipment asked for", () => pm.expect(${isShipment("answer.data")});`,
        ...(body.customer
          ? [
              `pm.test("has the customer set", () => pm.expect(answer.data.customers).to.include(${js(body.customer)}));`,
            ]
          : []),
      ];
    }
    case "shareShipment":
      return [
        'pm.test("a new link is 201, an existing one 200", () => pm.expect(answer.data.created).to.equal(code === 201));',
        'pm.test("links to a public page", () => pm.expect(answer.data.url).to.match(/^https?:\\/\\//));',
      ];
    case "unshareShipment":
      return [
        'pm.test("says whether a link was revoked", () => pm.expect(answer.revoked).to.be.a("boolean"));',
      ];
    case "untrackShipment":
      return ['pm.test("is untracked", () => pm.expect(answer.deleted).to.equal(true));'];
    case "retryFailed":
      return [
        'pm.test("counts what it examined", () => pm.expect(answer.queued + answer.skipped).to.be.at.most(answer.examined));',
      ];
    case "carriers":
      return [
        `pm.test("finds ${query.search}", () => pm.expect(answer.data.map((c) => (c.name + " " + c.slug).toLowerCase()).join(" ")).to.include(${js(query.search?.toLowerCase())}));`,
      ];
    case "carrierLookup":
      return [
        `pm.test("looks up the reference asked for", () => pm.expect(answer.data.reference_number).to.equal(${js(query.number)}));`,
      ];
    case "ports":
      return [
        `pm.test("finds ${query.search}", () => pm.expect(answer.data.map((p) => p.name.toLowerCase())).to.include(${js(query.search?.toLowerCase())}));`,
      ];
    case "portCongestion":
      return [
        `pm.test("is the port asked for", () => pm.expect(answer.data.locode).to.equal(${js(pathValue("locode"))}));`,
      ];
    case "vesselTrack":
      return [
        'pm.test("has a position", () => { pm.expect(answer.data.lat).to.be.a("number"); pm.expect(answer.data.lon).to.be.a("number"); });',
      ];
    case "schedules":
      return [
        `pm.test("sails from ${query.origin} to ${query.destination}", () => { pm.expect(answer.data).to.not.be.empty; answer.data.forEach((s) => { pm.expect(s.origin.locode).to.equal(${js(query.origin)}); pm.expect(s.destination.locode).to.equal(${js(query.destination)}); }); });`,
      ];
    case "accountUsage":
      return [
        'pm.test("names the plan", () => pm.expect(answer.data.plan).to.be.a("string").and.not.empty);',
      ];
    case "listDisruptions":
      return sandbox
        ? []
        : [
            // The read after it takes the first row's id; with none, it must answer not found.
            `pm.collectionVariables.set("disruptionsListed", String(answer.data.length));`,
            `if (answer.data.length > 0) pm.collectionVariables.set(${js(DISRUPTION_ID)}, answer.data[0].id);`,
          ];
    case "readDisruption":
      return sandbox
        ? [
            `pm.test("is the disruption asked for", () => pm.expect(answer.data.id).to.equal(${js(pathValue("id"))}));`,
          ]
        : [
            `pm.test("is the disruption listed first", () => pm.expect(answer.data.id).to.equal(pm.collectionVariables.get(${js(DISRUPTION_ID)})));`,
          ];
    case "shipmentDisruptions":
      return [
        `pm.test("is the shipment asked for", () => pm.expect([answer.shipment_id, answer.reference]).to.include(${shipment}));`,
      ];
    case "listPartnerSources":
      return ['pm.test("lists sources", () => pm.expect(answer.data).to.be.an("array"));'];
    case "createPartnerSource":
      return [
        'pm.test("shows the signing secret once", () => pm.expect(answer.data.signing_secret).to.match(/^psec_/));',
        ...(sandbox ? [] : [`pm.collectionVariables.set(${js(PARTNER_SOURCE_ID)}, answer.data.id);`]),
      ];
    case "rotatePartnerSourceSecret":
      return [
        `pm.test("is the source asked for, with a new secret", () => { pm.expect(answer.data.id).to.equal(${sandbox ? js(pathValue("id")) : `pm.collectionVariables.get(${js(PARTNER_SOURCE_ID)})`}); pm.expect(answer.data.signing_secret).to.match(/^psec_/); });`,
      ];
    case "postPartnerEvents":
      return [
        "const posted = JSON.parse(pm.request.body.raw).events;",
        'pm.test("one result per event, in order", () => { pm.expect(answer.data.results).to.have.lengthOf(posted.length); answer.data.results.forEach((r, i) => { pm.expect(r.index).to.equal(i); pm.expect(r.event_id).to.equal(posted[i].event_id); }); });',
        'pm.test("each event kept or a replay", () => answer.data.results.forEach((r) => pm.expect(r.outcome, r.message).to.be.oneOf(["applied", "superseded", "duplicate"])));',
      ];
    case "removePartnerSource":
      return ['pm.test("is removed", () => pm.expect(answer.removed).to.equal(true));'];
    case "fireWebhook":
      return [
        "const sent = JSON.parse(pm.request.body.raw);",
        'pm.test("sent one signed delivery of the event asked for", () => { pm.expect(answer.event).to.equal(sent.event); pm.expect(answer.signing_secret).to.be.a("string").and.not.empty; pm.expect(answer.delivered).to.be.a("boolean"); });',
      ];
    default:
      return [];
  }
}

/** The two description endpoints: the document and this collection. */
function metaTests(request: Request): string[] {
  const path = (request.url.path ?? []).join("/");
  if (path !== "openapi.json" && path !== "postman.json") {
    throw new Error(`the collection's request ${request.method} ${path} matches no route of the contract`);
  }
  const postman = path === "postman.json";
  return [
    'pm.test("answers 200", () => pm.response.to.have.status(200));',
    postman
      ? 'pm.test("is a Postman collection", () => pm.expect(pm.response.json().info.schema).to.include("collection/v2.1.0"));'
      : 'pm.test("is an OpenAPI 3.1 document", () => pm.expect(pm.response.json().openapi).to.equal("3.1.0"));',
  ];
}
