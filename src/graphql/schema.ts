import { builder } from "./builder";
import "./types/scalars";
import "./types/account";
import "./types/carrier";
import "./types/tracking";

export const schema = builder.toSchema({ sortSchema: true });
