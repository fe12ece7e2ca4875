import { builder } from "./builder";
import "./types/scalars";
import "./types/account";

export const schema = builder.toSchema({ sortSchema: true });
