import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { DatabaseUnavailableError, databaseUnavailableReason } from "../db/unavailable";
import { inSpan, tracingOn } from "../observability/tracing";
import { type AnswerCache, KEPT_OPERATIONS } from "./answer-cache";
import type { GraphQLContext } from "./context";
import { publicError } from "./errors";
import { checkOperationCost, queryLimitRules, unacceptableVariables } from "./limits";

/**
 * Persisted operations for the facades: `.graphql` files next to each facade, parsed and validated
 * once at start-up, then executed in-process with the request's context. No HTTP hop and no
 * per-request parse or validate (those cost ~270 us a request; execution ~19 us).
 */
export interface PersistedOperation {
  name: string;
  file: string;
  document: DocumentNode;
  /** query or mutation: names the operation's span. */
  type: OperationTypeNode;
  /**
   * The operation compiled to a function once at start-up (graphql-jit), or undefined when compiled
   * execution is switched off or the compiler refused the document: then graphql-js executes it.
   */
  compiled?: CompiledQuery;
}

/**
 * How persisted operations execute. `compiled` (the default) runs each through a function generated
 * once at start-up, skipping graphql-js's per-call walk of the document and its field lookups;
 * `interpreted` keeps graphql-js's `execute`. Both give the same data and the same coded errors
 * (test/graphql/compiled-execution.test.ts runs the facades' operations both ways).
 */
export type ExecutionMode = "compiled" | "interpreted";

export class OperationDocumentError extends Error {}

/**
 * Where the operations are: folders of `.graphql` files, one operation each, named like the file;
 * and a folder of fragments shared by several operations (one per file, named like the fragment).
 * The composition root names them: the core knows no facade.
 */
export interface OperationFolders {
  operations: readonly string[];
  fragments: string;
}

/**
 * Shared fragments: an operation that spreads one it does not define gets it, and the fragments it
 * spreads in turn, appended before validation. One selection, one place.
 */
export async function loadFragments(dir: string): Promise<Map<string, FragmentDefinitionNode>> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { file, source } of await loadOperationFiles(dir)) {
    for (const definition of parse(source).definitions) {
      if (definition.kind !== Kind.FRAGMENT_DEFINITION) {
        throw new OperationDocumentError(`${file}: a fragments file holds fragments only`);
      }
      fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}

function withSharedFragments(
  document: DocumentNode,
  shared: ReadonlyMap<string, FragmentDefinitionNode>,
): DocumentNode {
  const defined = new Set(
    document.definitions
      .filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => (d as FragmentDefinitionNode).name.value),
  );
  const added: FragmentDefinitionNode[] = [];
  const visit = (node: unknown) => {
    visitSpreads(node, (spread) => {
      if (defined.has(spread)) return;
      const fragment = shared.get(spread);
      if (!fragment) return; // validation reports the unknown fragment
      defined.add(spread);
      added.push(fragment);
      visit(fragment);
    });
  };
  visit(document);
  return added.length === 0 ? document : { ...document, definitions: [...document.definitions, ...added] };
}

function visitSpreads(node: unknown, found: (name: string) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visitSpreads(child, found);
  } else if (node && typeof node === "object") {
    const record = node as { kind?: string; name?: { value: string } };
    if (record.kind === Kind.FRAGMENT_SPREAD && record.name) found(record.name.value);
    for (const [key, value] of Object.entries(record)) if (key !== "loc") visitSpreads(value, found);
  }
}

/** A failure that was not an expected, coded GraphQL error: the facade answers its generic error. */
export class UnexpectedExecutionError extends Error {
  constructor(readonly errors: readonly GraphQLError[]) {
    super(errors.map((e) => e.message).join("; "));
  }
}

export async function loadOperationFiles(
  dir: string,
): Promise<{ name: string; file: string; source: string }[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const files = entries.filter((f) => f.endsWith(".graphql")).sort();
  return Promise.all(
    files.map(async (f) => {
      const file = path.join(dir, f);
      return { name: path.basename(f, ".graphql"), file, source: await readFile(file, "utf8") };
    }),
  );
}

export class OperationExecutor {
  /** Answers of the read operations kept between requests; absent: every run executes. */
  private answers?: AnswerCache;

  private constructor(
    private readonly schema: GraphQLSchema,
    private readonly operations: ReadonlyMap<string, PersistedOperation>,
  ) {}

  /**
   * An executor whose runs may be answered from `answers` (the live service's). The sandbox keeps
   * using the executor it was built from, without a cache: its world has its own clock and writes.
   */
  async withAnswers(answers: AnswerCache): Promise<OperationExecutor> {
    const cached = new OperationExecutor(this.schema, this.operations);
    cached.answers = answers;
    // Compiled now, as the executor's own documents are, so no first request waits for it.
    await answers.prepare(
      [...this.operations.values()].filter(
        (o) => o.type === OperationTypeNode.QUERY && KEPT_OPERATIONS.has(o.name),
      ),
    );
    return cached;
  }

  /**
   * Parses and validates every document; any problem stops start-up with the file named. The depth
   * and cost bounds guard against what clients send; our own documents are checked against the
   * default bounds by a test instead, so an operator's tighter bounds cannot stop start-up.
   */
  static async load(
    schema: GraphQLSchema,
    folders: OperationFolders,
    mode: ExecutionMode = "compiled",
  ): Promise<OperationExecutor> {
    const operations = new Map<string, PersistedOperation>();
    const problems: string[] = [];
    const fragments = await loadFragments(folders.fragments);
    for (const dir of folders.operations) {
      for (const { name, file, source } of await loadOperationFiles(dir)) {
        const checked = checkOperation(schema, { name, source }, { fragments });
        if (typeof checked === "string") problems.push(`${file}: ${checked}`);
        else if (operations.has(name)) problems.push(`${file}: operation ${name} is defined twice`);
        else {
          const compiled = mode === "compiled" ? compiledOperation(schema, checked, name) : undefined;
          operations.set(name, { name, file, document: checked, type: operationTypeOf(checked), compiled });
        }
      }
    }
    if (problems.length > 0) throw new OperationDocumentError(problems.join("\n"));
    return new OperationExecutor(schema, operations);
  }

  /**
   * Runs the persisted operation the document names: the generated document gives the types and the
   * name, the document parsed and validated at start-up is what executes. Coded errors
   * (extensions.code) are returned for the facade to translate; a database outage throws
   * `DatabaseUnavailableError`, anything else `UnexpectedExecutionError`, so no internal message can
   * reach a client.
   */
  async run<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    variables: TVariables | undefined,
    context: GraphQLContext,
  ): Promise<{ data: TData | null; errors: readonly GraphQLError[] }> {
    const name = operationName(document);
    const operation = this.operations.get(name);
    if (!operation) throw new Error(`${name} is not a persisted operation`);
    // Text PostgreSQL cannot store is refused here once for every facade, before any resolver runs.
    const variableValues = (variables ?? {}) as Record<string, unknown>;
    const problem = unacceptableVariables(variableValues);
    if (problem) return { data: null, errors: [publicError("BAD_USER_INPUT", problem)] };
    const compiled = operation.compiled;
    const answers = this.answers;
    const run = async () =>
      (answers && operation.type === OperationTypeNode.QUERY && KEPT_OPERATIONS.has(name)
        ? await answers.run(operation, variableValues, context)
        : compiled
          ? await compiled.query(undefined, context, variableValues)
          : await execute({
              schema: this.schema,
              document: operation.document,
              variableValues,
              contextValue: context,
            })) as ExecutionResult<TData>;
    // The hot path of every facade: with tracing off, not even the span helper is called.
    const result = tracingOn()
      ? await inSpan(
          `${operation.type} ${name}`,
          {
            attributes: {
              "graphql.operation.type": operation.type,
              "graphql.operation.name": name,
              "quayside.surface": context.surface ?? "graphql",
            },
          },
          run,
        )
      : await run();
    const errors = result.errors ?? [];
    const unexpected = errors.filter((e) => typeof e.extensions?.code !== "string");
    // An outage is not a bug: the surface answers its 503 (and logs a warning) rather than a 500.
    const outage = databaseUnavailableReason(unexpected);
    if (outage) throw new DatabaseUnavailableError(outage);
    if (unexpected.length > 0) throw new UnexpectedExecutionError(unexpected);
    return { data: result.data ?? null, errors };
  }
}

/**
 * Compiles one validated operation. Leaf serialisation stays on (the schema's scalars format dates
 * and JSON), and the compiler's stack capture is off: its errors never reach a client anyway. A
 * document the compiler refuses executes interpreted rather than stopping start-up.
 */
function compiledOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  name: string,
): CompiledQuery | undefined {
  try {
    const compiled = compileQuery(schema, document, name, { disablingCapturingStackErrors: true });
    return isCompiledQuery(compiled) ? compiled : undefined;
  } catch {
    return undefined;
  }
}

function operationTypeOf(document: DocumentNode): OperationTypeNode {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operation?.operation ?? OperationTypeNode.QUERY;
}

const names = new WeakMap<DocumentNode, string>();

/** The name of the one operation a document holds (generated documents append their fragments). */
export function operationName(document: DocumentNode): string {
  let name = names.get(document);
  if (name === undefined) {
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    name = operation?.name?.value ?? "";
    names.set(document, name);
  }
  return name;
}

/** Returns the parsed document or a description of what is wrong with it. */
export function checkOperation(
  schema: GraphQLSchema,
  { name, source }: { name: string; source: string },
  {
    limits,
    fragments = new Map(),
  }: {
    /** Unset at start-up: the documents are the service's own; a client's are bounded. */
    limits?: { maxDepth: number; maxCost: number };
    fragments?: ReadonlyMap<string, FragmentDefinitionNode>;
  } = {},
): DocumentNode | string {
  let document: DocumentNode;
  try {
    document = withSharedFragments(parse(source), fragments);
  } catch (error) {
    return error instanceof GraphQLError ? error.message : String(error);
  }
  const ops = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (ops.length !== 1) return "a file holds exactly one operation";
  if (ops[0]!.name?.value !== name) return `the operation must be named ${name}, like its file`;
  const errors = [
    ...validate(schema, document, [...specifiedRules, ...(limits ? queryLimitRules(limits) : [])]),
  ];
  if (errors.length === 0 && limits)
    errors.push(...checkOperationCost(schema, document, { operationName: name, variables: {}, limits }));
  return errors.length > 0 ? errors.map((e) => e.message).join("; ") : document;
}
