import { z } from "zod";
import { builder } from "../../builder";

export const CreateWebhookEndpointInput = builder.inputType("CreateWebhookEndpointInput", {
  fields: (t) => ({
    url: t.string({ required: true, description: "https URL of a public host." }),
    events: t.stringList({ required: true, validate: z.array(z.string()).min(1).max(10) }),
  }),
});
