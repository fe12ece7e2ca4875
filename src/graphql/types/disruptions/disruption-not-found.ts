import { builder } from "../../builder";

export const DisruptionNotFoundRef = builder.objectRef<{ id: string }>("DisruptionNotFound").implement({
  description: "No published disruption has this id.",
  fields: (t) => ({ id: t.exposeString("id") }),
});
