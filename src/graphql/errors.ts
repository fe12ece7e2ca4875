import { GraphQLError } from "graphql";

/**
 * Stable codes for expected failures. Anything thrown that is not one of these is masked by Yoga
 * (and by the facade executor) as "Unexpected error." with no internal detail.
 */
export type PublicErrorCode =
  | "UNAUTHENTICATED"
  | "DEVELOPER_MODE_DISABLED"
  | "VIEW_ONLY_KEY"
  | "OWNER_REQUIRED"
  | "OPERATOR_REQUIRED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "BAD_USER_INPUT"
  | "API_KEY_LIMIT_REACHED"
  | "QUERY_TOO_DEEP"
  | "QUERY_TOO_COSTLY";

export function publicError(code: PublicErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}
