import type { Principal } from "../domain/accounts/principal";
import type { Surface } from "../domain/tracking/tracking.service";
import type { Services } from "../services";

/**
 * One context per request, the same for Yoga, every facade, jobs and tests. Services never see the
 * HTTP request: only who is asking and the request id for the logs.
 */
export interface GraphQLContext {
  requestId: string;
  principal: Principal | null;
  services: Services;
  /** Which surface asked: recorded with every tracking lookup (compat /history lists them). */
  surface: Surface;
}

/** The context of a field behind an auth scope (`t.withAuth`): every scope needs a principal. */
export type AuthedContext = GraphQLContext & { principal: Principal };

export function createContext(input: {
  requestId: string;
  principal: Principal | null;
  services: Services;
  surface?: Surface;
}): GraphQLContext {
  return {
    requestId: input.requestId,
    principal: input.principal,
    services: input.services,
    surface: input.surface ?? "graphql",
  };
}
