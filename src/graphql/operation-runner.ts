import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { Principal } from "../domain/accounts/principal";
import type { Surface } from "../domain/tracking/tracking.service";
import { type OutcomeCode, outcomeForGraphQLCode } from "../http/outcomes";
import type { Services } from "../services";
import { createContext } from "./context";
import type { OperationExecutor } from "./executor";

/** Who runs an operation: the request id for the logs, and the principal its key authenticated. */
export interface Caller {
  requestId: string;
  principal?: Principal | null;
}

/** A persisted operation's data, or its coded error as an outcome of the table for the facade to render. */
export type OperationResult<T> =
  | { ok: true; data: T }
  | { ok: false; outcome: OutcomeCode; message: string; extensions: Record<string, unknown> };

/** An operation without variables, or whose variables are all optional, may be run without them. */
export type VariablesArgument<TVariables> =
  Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];

/**
 * Runs a persisted operation as a caller: the result type comes from the generated document
 * (`facades/generated/operations.ts`), so a facade that reads a field its operation does not select,
 * or an operation the schema no longer satisfies, fails at `npm run typecheck`.
 */
export type RunOperation = <TData, TVariables>(
  caller: Caller,
  document: TypedDocumentNode<TData, TVariables>,
  ...variables: VariablesArgument<TVariables>
) => Promise<OperationResult<TData>>;

/**
 * The run a facade gets: persisted operations executed against one set of services (live, or the
 * sandbox world), recorded as one surface. A coded error becomes an outcome; anything unexpected
 * propagates to the surface's error handler (logged, masked).
 */
export function operationRunner(
  executor: OperationExecutor,
  services: Services,
  surface: Surface,
): RunOperation {
  return async (caller, document, ...[variables]) => {
    const context = createContext({
      requestId: caller.requestId,
      principal: caller.principal ?? null,
      services,
      surface,
    });
    const { data, errors } = await executor.run(document, variables, context);
    const first = errors[0];
    if (first) {
      return {
        ok: false,
        outcome: outcomeForGraphQLCode(first.extensions.code),
        message: first.message,
        extensions: first.extensions as Record<string, unknown>,
      };
    }
    // Without a coded error graphql-js always returns data.
    return { ok: true, data: data! };
  };
}
