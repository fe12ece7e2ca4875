import { builder } from "../../builder";

export const DisruptionFilterInvalidRef = builder
  .objectRef<{ param: string; message: string }>("DisruptionFilterInvalid")
  .implement({
    description: "A filter value is not valid (checked before the plan).",
    fields: (t) => ({
      param: t.exposeString("param", { description: "The filter's REST name, e.g. severity, page_size." }),
      message: t.exposeString("message"),
    }),
  });
