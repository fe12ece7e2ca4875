import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin, { type AuthFailure } from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import type PrismaTypes from "../generated/pothos-prisma-types";
import { getDatamodel } from "../generated/pothos-prisma-types";
import type { AuthedContext, GraphQLContext } from "./context";
import { publicError } from "./errors";

/** Configures Pothos and defines nothing: every type lives in its own file under ./types. */
export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphQLContext;
  AuthScopes: {
    /** A key whose organisation has developer mode on: every data field needs it. */
    developerMode: boolean;
    /** A key that may change things (not view-only). */
    writableKey: boolean;
    /** The key's user owns the organisation. */
    owner: boolean;
    /** The key's organisation runs this deployment (set by the CLI): operational state such as feed health. */
    operator: boolean;
  };
  /**
   * Every scope is granted only to a caller with a principal, so a field declared with
   * `t.withAuth(scopes)` resolves with `ctx.principal` typed as present (no `ctx.principal!`).
   */
  AuthContexts: {
    developerMode: AuthedContext;
    writableKey: AuthedContext;
    owner: AuthedContext;
    operator: AuthedContext;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    /** A file of a multipart request (GraphQL multipart request specification), input only. */
    File: { Input: File; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin, DataloaderPlugin, ValidationPlugin],
  scopeAuth: {
    authScopes: (ctx) => ({
      // Developer mode gates API keys; a person signed in to the dashboard always reads their own data.
      developerMode: ctx.principal?.organization.developerMode === true || ctx.principal?.apiKey === null,
      writableKey: ctx.principal !== null && ctx.principal.apiKey?.viewOnly !== true,
      owner: ctx.principal?.user.role === "owner",
      operator: ctx.principal?.organization.operator === true,
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.principal) return publicError("UNAUTHENTICATED", "An API key is required.");
      const scope = failedScope(result.failure);
      if (scope === "developerMode") {
        return publicError(
          "DEVELOPER_MODE_DISABLED",
          "Developer mode is off for this organisation; switch it on with setDeveloperMode.",
        );
      }
      if (scope === "writableKey") return publicError("VIEW_ONLY_KEY", "This key is view-only.");
      if (scope === "owner") {
        return publicError("OWNER_REQUIRED", "Only an owner of the organisation may do this.");
      }
      if (scope === "operator") {
        return publicError(
          "OPERATOR_REQUIRED",
          "Only the organisation that operates this deployment may read this.",
        );
      }
      return publicError("FORBIDDEN", "Not allowed.");
    },
  },
  prisma: {
    client: (ctx) => ctx.services.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  validation: {
    validationError: (result) =>
      publicError("BAD_USER_INPUT", result.issues.map((i) => i.message).join("; ") || "Invalid input."),
  },
});

builder.queryType({});
builder.mutationType({});

/** The first scope that refused, so the error names the one thing the caller can fix. */
function failedScope(failure: AuthFailure): string | undefined {
  if ("scope" in failure) return failure.scope;
  if ("failures" in failure) {
    for (const inner of failure.failures) {
      const scope = failedScope(inner);
      if (scope) return scope;
    }
  }
  return undefined;
}
