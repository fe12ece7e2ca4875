import { builder } from "../../builder";
import { UserRoleEnum } from "./user-role";

builder.prismaObject("User", {
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    name: t.exposeString("name"),
    role: t.field({ type: UserRoleEnum, resolve: (u) => u.role }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    removedAt: t.expose("removedAt", {
      type: "DateTime",
      nullable: true,
      description: "When an owner removed them from the team; null while on it.",
    }),
  }),
});
