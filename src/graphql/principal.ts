import type { Principal } from "../domain/accounts/principal";
import type { GraphQLContext } from "./context";
import { publicError } from "./errors";

/**
 * The caller of a field that no builder scope guards itself (a field of an object only a scoped field
 * returns, or one behind a function scope): typed as present, and refused as a missing key if the
 * field is ever reached without one. Fields behind a builder scope use `t.withAuth(scopes)` instead,
 * whose context types the principal (src/graphql/builder.ts, `AuthContexts`).
 */
export function principalOf(ctx: GraphQLContext): Principal {
  if (!ctx.principal) throw publicError("UNAUTHENTICATED", "An API key is required.");
  return ctx.principal;
}
