import { builder } from "./builder";
import "./types/scalars";
import "./types/account";
import "./types/carrier";

export const schema = builder.toSchema({ sortSchema: true });
