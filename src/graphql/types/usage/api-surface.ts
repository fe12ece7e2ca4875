import { API_SURFACES } from "../../../domain/usage/api-calls.service";
import { builder } from "../../builder";

export const ApiSurfaceEnum = builder.enumType("ApiSurface", {
  description: "A surface whose calls are counted: compat, v1, mcp or graphql.",
  values: API_SURFACES,
});
