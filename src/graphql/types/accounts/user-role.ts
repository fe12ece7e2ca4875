import { builder } from "../../builder";

export const UserRoleEnum = builder.enumType("UserRole", {
  values: {
    owner: { description: "Sees and revokes every key of the organisation; switches developer mode." },
    member: { description: "Sees and revokes the keys of their own." },
  } as const,
});
