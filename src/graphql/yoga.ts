import type { Request, Response } from "express";
import { type DocumentNode, GraphQLError, type GraphQLSchema, getOperationAST } from "graphql";
import { createGraphQLError, createYoga, type Plugin } from "graphql-yoga";
import { databaseUnavailableReason, isDatabaseUnavailable } from "../db/unavailable";
import type { Principal } from "../domain/accounts/principal";
import { OUTCOMES } from "../http/outcomes";
import { inSpan, tracingOn } from "../observability/tracing";
import type { Services } from "../services";
import { createContext } from "./context";
import { DocumentCache } from "./document-cache";
import {
  checkOperationCost,
  limitError,
  parseBounded,
  type QueryLimits,
  queryLimitRules,
  unacceptableVariables,
} from "./limits";
import { uploadCap } from "./upload-cap";

interface ServerContext {
  req: Request & { principal?: Principal };
  res: Response;
}

/** Documents of at most 4 KiB are cached, 256 KiB of text in all (about 15 MB parsed, at worst). */
export const DOCUMENT_CACHE_BOUNDS = { maxDocumentBytes: 4_096, maxTotalBytes: 262_144 } as const;

/**
 * Admission of a client's document, in place of Yoga's own parser and validation cache (1,024
 * documents of any size for an hour, cached before they are refused): variables are checked before
 * parsing, the document's size and tokens before parsing it, depth, aliases and directives at
 * validation, cost and upstream calls with the request's variables; only a document that passed all
 * of it is cached, in a cache bounded by bytes.
 */
function admission(limits: QueryLimits, cache: DocumentCache): Plugin {
  const rules = queryLimitRules(limits);
  const validated = new WeakSet<DocumentNode>();
  const sources = new WeakMap<DocumentNode, string>();
  return {
    onParams({ params, setResult }) {
      const problem = unacceptableVariables(params.variables ?? {});
      if (problem) setResult({ errors: [limitError("BAD_USER_INPUT", problem)] });
    },
    onParse({ params, setParsedDocument, setParseFn }) {
      const source = typeof params.source === "string" ? params.source : params.source.body;
      const cached = cache.get(source);
      if (cached) return void setParsedDocument(cached);
      setParseFn(() => parseBounded(source, limits));
      return ({ result }) => {
        if (result && !(result instanceof Error)) sources.set(result as DocumentNode, source);
      };
    },
    onValidate({ params, addValidationRule, setResult }) {
      if (validated.has(params.documentAST)) return void setResult([]);
      for (const rule of rules) addValidationRule(rule);
    },
    // Yoga answers parse and validation errors with 200 to `application/json` clients (the
    // GraphQL-over-HTTP "spec" mode); a refused document is a client error, so it gets its 4xx.
    onResultProcess({ result }) {
      if (!("errors" in result) || !result.errors) return;
      for (const error of result.errors) {
        const http = (error.extensions as { http?: { spec?: boolean } } | undefined)?.http;
        if (http?.spec) http.spec = false;
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const errors = checkOperationCost(args.schema, args.document, {
        operationName: args.operationName,
        variables: (args.variableValues ?? {}) as Record<string, unknown>,
        limits,
      });
      if (errors.length > 0) return void setResultAndStopExecution({ errors });
      if (!validated.has(args.document)) {
        validated.add(args.document);
        const source = sources.get(args.document);
        if (source !== undefined) cache.offer(source, args.document);
      }
    },
  };
}

/** A span around each operation's execution while tracing is on, named like `query Viewer`. */
function operationSpans(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!tracingOn()) return;
      const operation = getOperationAST(args.document, args.operationName);
      const type = operation?.operation ?? "query";
      const name = operation?.name?.value;
      setExecuteFn((execution) =>
        inSpan(
          name ? `${type} ${name}` : type,
          {
            attributes: {
              "graphql.operation.type": type,
              ...(name ? { "graphql.operation.name": name } : {}),
            },
          },
          async () => executeFn(execution),
        ),
      );
    },
  };
}

export function createGraphQLHandler(
  services: Services,
  schema: GraphQLSchema,
  cache = new DocumentCache(
    DOCUMENT_CACHE_BOUNDS.maxDocumentBytes,
    DOCUMENT_CACHE_BOUNDS.maxTotalBytes,
    services.metrics.cache("graphql_document"),
  ),
) {
  const { graphql: limits } = services.config;
  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: limits.graphiql
      ? { title: "Quayside GraphQL", defaultQuery: "{ viewer { organization { name plan { name } } } }" }
      : false,
    // Yoga's default answers every origin with credentials allowed; only listed origins get CORS
    // headers here, and never credentials (keys travel in headers, not cookies).
    cors: (request) => {
      const origin = request.headers.get("origin")?.toLowerCase();
      if (!origin || !limits.corsOrigins.includes(origin)) return false;
      return {
        origin: [origin],
        credentials: false,
        methods: ["GET", "POST"],
        allowedHeaders: ["authorization", "content-type", "x-api-key"],
        exposedHeaders: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"],
        maxAge: 600,
      };
    },
    parserAndValidationCache: false,
    // Only multipart uploads reach Yoga's own body parsers (JSON is read before, within
    // QUAYSIDE_BODY_LIMIT): a file at the documents' cap plus its operation and map. `uploadCap`
    // holds them to it, with a 413 also for a chunked body (Yoga's own cap answered that 400).
    maxRequestBodySize: false,
    plugins: [
      uploadCap(services.config.documents.maxBytes + limits.maxQueryBytes + 65_536),
      admission(limits, cache),
      operationSpans(),
    ],
    // Expected failures are GraphQLErrors (ours carry extensions.code; graphql-js's own parse and
    // validation errors too). A database outage is the table's 503 with Retry-After, logged as a
    // warning. Anything else thrown inside a resolver is logged and masked.
    maskedErrors: {
      maskError(error, message) {
        if (
          error instanceof GraphQLError &&
          (!error.originalError || error.originalError instanceof GraphQLError)
        ) {
          return error;
        }
        const cause = error instanceof GraphQLError ? error.originalError : error;
        const outage = databaseUnavailableReason(cause);
        if (outage) {
          services.logger.warn({ outcome: "database_unavailable", reason: outage }, "Database unavailable");
          const wire = OUTCOMES.database_unavailable;
          return createGraphQLError(wire.sentence, {
            extensions: {
              code: wire.graphql.code,
              reason: wire.v1.error,
              http: {
                status: wire.graphql.status,
                headers: { "Retry-After": String(wire.retryAfterSeconds) },
              },
            },
          });
        }
        services.logger.error({ err: cause }, "Unexpected error in a GraphQL resolver");
        return createGraphQLError(message, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
      },
    },
    logging: {
      debug: (...args) => services.logger.debug(args),
      info: (...args) => services.logger.info(args),
      warn: (...args) => services.logger.warn(args),
      // Yoga logs every error maskError replaced; an outage was logged there already, as a warning.
      error: (...args) => {
        if (!args.some(isDatabaseUnavailable)) services.logger.error(args);
      },
    },
    context: ({ req }) =>
      createContext({ requestId: req.requestId, principal: req.principal ?? null, services }),
  });
  return Object.assign(yoga, { documentCache: cache });
}
