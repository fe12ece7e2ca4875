import { AccountError } from "../../../domain/accounts/accounts.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { CreateApiKeyInput } from "./create-api-key-input";

const CreateApiKeyPayloadRef = builder
  .objectRef<{ apiKey: { id: string }; rawKey: string }>("CreateApiKeyPayload")
  .implement({
    fields: (t) => ({
      apiKey: t.prismaField({
        type: "ApiKey",
        resolve: (query, payload, _a, ctx) =>
          ctx.services.db.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: payload.apiKey.id } }),
      }),
      key: t.string({
        description: "The raw key. Shown this once: store it now, it cannot be read again.",
        resolve: (p) => p.rawKey,
      }),
    }),
  });

builder.mutationFields((t) => ({
  createApiKey: t.withAuth({ writableKey: true }).field({
    type: CreateApiKeyPayloadRef,
    // Nullable so that a refused alias does not null its siblings: their raw keys exist only in this answer.
    nullable: true,
    description:
      "Creates a key for the calling key's user. A user holds at most 25 live keys (neither revoked nor expired) and an organisation 100; one more is refused with API_KEY_LIMIT_REACHED (extensions `scope`: user or organization, and `limit`). Two live keys of an organisation never share a name (case ignored): a taken name is refused with BAD_USER_INPUT.",
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      mapAccountErrors(() =>
        ctx.services.accounts.createApiKey({
          userId: ctx.principal.user.id,
          name: input.name,
          viewOnly: input.viewOnly ?? false,
          expiresAt:
            input.expiresAt ??
            (input.expiresInDays
              ? new Date(ctx.services.clock.now().getTime() + input.expiresInDays * 86_400_000)
              : null),
        }),
      ),
  }),
}));

async function mapAccountErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AccountError) {
      if (error.code === "limit_reached") {
        throw publicError("API_KEY_LIMIT_REACHED", error.message, { ...error.bound });
      }
      throw publicError(error.code === "not_found" ? "NOT_FOUND" : "BAD_USER_INPUT", error.message);
    }
    throw error;
  }
}
