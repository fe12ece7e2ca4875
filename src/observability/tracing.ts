import { hostname } from "node:os";
import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { AppConfig } from "../config";

/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured. Spans go through the
 * OpenTelemetry API's process-wide registration (one tracer provider, an AsyncLocalStorage context,
 * the W3C `traceparent` propagator), so one process traces for one server at a time. While off,
 * `tracer` is null and every helper below runs its work directly: no span, no context, no allocation
 * beyond the call itself.
 */
let tracer: Tracer | null = null;

export interface Tracing {
  /** Sends the spans ended so far (tests, and the end of a shutdown). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function startTracing(settings: NonNullable<AppConfig["tracing"]>, version: string): Tracing {
  if (tracer) throw new Error("Tracing is already running in this process");
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: version,
      "service.instance.id": `${hostname()}:${process.pid}`,
    }),
    // A caller's sampling decision (the traceparent's flag) is kept; new traces are sampled at the ratio.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers, timeoutMillis: 10_000 }),
        { scheduledDelayMillis: 2_000, maxQueueSize: 4_096, maxExportBatchSize: 512 },
      ),
    ],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  tracer = provider.getTracer("quayside", version);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      tracer = null;
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

export function tracingOn(): boolean {
  return tracer !== null;
}

export { type Span, SpanKind };

export interface SpanSettings {
  kind?: SpanKind;
  attributes?: Attributes;
  /**
   * Only inside another span (SQL statements): a statement outside any request or job (a worker's
   * claim poll, a batched log flush) would otherwise be a trace of its own every second.
   */
  childOnly?: boolean;
  /**
   * A trace of its own (background work): a worker's timer set during an earlier tick would otherwise
   * make every tick a child of the one before.
   */
  root?: boolean;
}

/**
 * Runs `work` inside a span that ends when it settles (error status on a rejection, with the error's
 * class name, never its message). While tracing is off, `work` runs with no span.
 */
export function inSpan<T>(
  name: string,
  settings: SpanSettings,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracer) return work(undefined);
  if (settings.childOnly && !trace.getSpan(context.active())) return work(undefined);
  const options = { kind: settings.kind, attributes: settings.attributes, root: settings.root };
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute("error.type", error instanceof Error ? error.constructor.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The server span of one incoming request, continuing the caller's `traceparent` when it sends one.
 * Returns the span and a function running the rest of the request in its context.
 */
export function startServerSpan(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
): { span: Span; run<R>(fn: () => R): R } | null {
  if (!tracer) return null;
  const parent = propagation.extract(context.active(), headers, {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
  });
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  const active = trace.setSpan(parent, span);
  return { span, run: (fn) => context.with(active, fn) };
}

/** Binds an event emitter's listeners to the current context (a request's body events run outside it). */
export function bindToContext<E extends NodeJS.EventEmitter>(emitter: E): E {
  return tracer ? context.bind(context.active(), emitter) : emitter;
}

/** Ends a span with an error status when `failed`. */
export function endSpan(span: Span, failed: boolean): void {
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

const SQL_TEXT_LIMIT = 2_000;

/**
 * A statement's client span (only inside a request's or a job's span): named by its operation and,
 * for a prepared statement, its name; the parameterised text is recorded, never the values.
 */
export function inSqlSpan<T>(text: string, work: () => Promise<T>, statementName?: string): Promise<T> {
  if (!tracer) return work();
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SQL";
  return inSpan(
    statementName ? `${operation} ${statementName}` : operation,
    {
      kind: SpanKind.CLIENT,
      childOnly: true,
      attributes: {
        "db.system.name": "postgresql",
        "db.operation.name": operation,
        "db.query.text": text.length > SQL_TEXT_LIMIT ? `${text.slice(0, SQL_TEXT_LIMIT)}…` : text,
        ...(statementName ? { "db.query.summary": statementName } : {}),
      },
    },
    work,
  );
}

/** Marks a span failed without an exception (an upstream's refusal, a failed delivery). */
export function markFailed(span: Span | undefined): void {
  span?.setStatus({ code: SpanStatusCode.ERROR });
}
