import { builder } from "../../builder";

export const LookupInputInvalidRef = builder
  .objectRef<{ param: string; message: string }>("LookupInputInvalid")
  .implement({
    description: "A parameter of the lookup is not valid; nothing was spent.",
    fields: (t) => ({
      param: t.exposeString("param", { description: "The parameter's REST name, e.g. imo, week_range." }),
      message: t.exposeString("message"),
    }),
  });
