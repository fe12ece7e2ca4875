import { builder } from "../../builder";

export const LookupOutcomeEnum = builder.enumType("LookupOutcome", {
  description: "How a logged call ended.",
  values: {
    tracked: { description: "Answered with the carrier's current document (or a fresh stored one)." },
    stale: { description: "The carrier could not be reached; the stored document was served." },
    not_found: { description: "No carrier asked had a record of the reference." },
  } as const,
});
