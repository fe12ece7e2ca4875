import { builder } from "./builder";
import "./types/scalars";
import "./types/account";
import "./types/carrier";
import "./types/tracking";
import "./types/shipments";
import "./types/sharing";

export const schema = builder.toSchema({ sortSchema: true });
