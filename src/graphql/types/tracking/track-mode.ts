import { builder } from "../../builder";

export const TrackModeEnum = builder.enumType("TrackMode", {
  values: {
    FETCH: { description: "Always ask the carrier (v1 /container and /bl)." },
    SERVE_FRESH: { description: "Serve the stored document while it is younger than 12 hours." },
  } as const,
});
