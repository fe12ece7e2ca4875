import { z } from "zod";
import { builder } from "../../builder";

export const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  fields: (t) => ({
    name: t.string({ required: true, validate: z.string().trim().min(1).max(100) }),
    viewOnly: t.boolean({
      required: false,
      description: "A view-only key can read but not change anything.",
    }),
    expiresAt: t.field({ type: "DateTime", required: false }),
    expiresInDays: t.int({
      required: false,
      description:
        "Expires this many days from now on the server's clock (1 to 3650); ignored when expiresAt is given.",
      validate: z.number().int().min(1).max(3650),
    }),
  }),
});
