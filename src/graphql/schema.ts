import { builder } from "./builder";
import "./types/scalars";
import "./types/account";
import "./types/carrier";
import "./types/tracking";
import "./types/usage";
import "./types/history";
import "./types/journey";
import "./types/shipments";
import "./types/sharing";
import "./types/webhooks";

export const schema = builder.toSchema({ sortSchema: true });
