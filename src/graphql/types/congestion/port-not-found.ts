import { builder } from "../../builder";

export const PortNotFoundRef = builder.objectRef<{ locode: string }>("PortNotFound").implement({
  description: "No port of the catalogue has this code.",
  fields: (t) => ({ locode: t.exposeString("locode", { description: "The code asked." }) }),
});
