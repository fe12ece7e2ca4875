import { daysLeftChangesAt } from "../../../domain/tracking/shipment-facts";
import { ETA_MOVED_HOURS, remainingDays, type SummaryFacts } from "../../../domain/tracking/summary-facts";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";

/**
 * The document facts a shipment list shows, read from the shipment row: computed once when the
 * document version was stored, so a page of 100 reads 100 small rows and no document.
 */
export const ShipmentSummaryRef = builder.objectRef<SummaryFacts>("ShipmentSummary").implement({
  description:
    "What a shipment's newest document says in brief, kept with the shipment (the same facts as the document's own fields).",
  fields: (t) => ({
    origin: t.exposeString("origin", { description: "Place of receipt, else port of loading, as text." }),
    destination: t.exposeString("destination", {
      description: "Place of delivery, else port of discharge, as text.",
    }),
    isDelayed: t.exposeBoolean("isDelayed", {
      description: "True when the ETA moved more than a day later than the first ETA recorded.",
    }),
    totalDays: t.exposeInt("totalDays", { description: "Days from departure to (estimated) arrival." }),
    remainingDays: t.int({
      description: "Days until the estimated arrival; 0 once arrived.",
      resolve: (facts, _a, ctx) => {
        const now = ctx.services.clock.now();
        answerValidUntil(
          daysLeftChangesAt(facts.remainingUntil ? Date.parse(facts.remainingUntil) : null, now),
        );
        return remainingDays(facts, now);
      },
    }),
    arrivalLocalDateTime: t.exposeString("arrivalLocalDateTime", {
      nullable: true,
      description:
        "Arrival at the port of discharge (estimated, or actual once it happened) as wall-clock time there, YYYY-MM-DD HH:MM:SS.",
    }),
    arrival: t.field({
      type: "DateTime",
      nullable: true,
      description: "The instant arrivalLocalDateTime denotes, in UTC; null when it is null.",
      resolve: (facts) => (facts.arrival ? new Date(facts.arrival) : null),
    }),
    arrivalUtcOffset: t.string({
      nullable: true,
      description:
        "The clock arrivalLocalDateTime is on: its offset from UTC at that moment, e.g. +01:00 (+00:00 when the port's time zone is unknown: the time is then UTC's); null when it is null.",
      resolve: (facts) => utcOffsetOf(facts.arrivalLocalDateTime, facts.arrival),
    }),
    ataLocalDateTime: t.exposeString("ataLocalDateTime", {
      nullable: true,
      description:
        "The vessel's actual arrival at the final port of discharge, wall-clock time there; null until then.",
    }),
    ata: t.field({
      type: "DateTime",
      nullable: true,
      description: "The instant ataLocalDateTime denotes, in UTC; null until the vessel arrived.",
      resolve: (facts) => (facts.ata ? new Date(facts.ata) : null),
    }),
    ataUtcOffset: t.string({
      nullable: true,
      description:
        "The clock ataLocalDateTime is on: its offset from UTC at that moment, e.g. +01:00; null until the vessel arrived.",
      resolve: (facts) => utcOffsetOf(facts.ataLocalDateTime, facts.ata),
    }),
    containerNumbers: t.exposeStringList("containerNumbers", {
      description: "The boxes of the document, in its order.",
    }),
    etaChangeHours: t.int({
      description:
        "How far the carrier's last update moved the estimated arrival, in hours (later positive); 0 when it did not move it.",
      resolve: (facts) => facts.etaChangeHours ?? 0,
    }),
    etaMoved: t.boolean({
      description: `True when the carrier's last update moved the estimated arrival by ${ETA_MOVED_HOURS} hours or more, either way (the overview's "ETA moved").`,
      resolve: (facts) => facts.etaMoved ?? false,
    }),
    vesselName: t.string({
      nullable: true,
      description:
        "The vessel of the leg under way, else of the next leg to sail; null when none is known or all legs are done.",
      resolve: (facts) => facts.vesselName ?? null,
    }),
  }),
});
