import {
  DEFAULT_DATE_TYPE,
  DEFAULT_WEEK_RANGE,
  MAX_WEEK_RANGE,
  type ScheduleOutcome,
} from "../../../domain/schedules/schedules.service";
import { builder } from "../../builder";
import { UPSTREAM_CALL } from "../../limits";
import { LookupInputInvalidRef } from "../lookups/lookup-input-invalid";
import { LookupLimitExceededRef } from "../lookups/lookup-limit-exceeded";
import { LookupProviderUnavailableRef } from "../lookups/lookup-provider-unavailable";
import { SailingSchedulesRef } from "./sailing-schedules";
import { ScheduleDateTypeEnum } from "./schedule-date-type";

const MEMBERS = {
  found: SailingSchedulesRef,
  limit_exceeded: LookupLimitExceededRef,
  unavailable: LookupProviderUnavailableRef,
  invalid: LookupInputInvalidRef,
} as const;

const SailingSchedulesOutcomeRef = builder.unionType("SailingSchedulesOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as ScheduleOutcome).kind],
});

builder.queryFields((t) => ({
  sailingSchedules: t.withAuth({ developerMode: true }).field({
    extensions: UPSTREAM_CALL,
    type: SailingSchedulesOutcomeRef,
    nullable: true,
    description:
      "Carriers' point-to-point sailings between two ports (DCSA Commercial Schedules), departing (or arriving) from `date` over `weekRange` weeks. Served from a 30-minute cache (free) or spends one lookup of the key's daily vessel-and-schedule allowance.",
    args: {
      origin: t.arg.string({ required: true, description: "UN/LOCODE, e.g. CNSHA." }),
      destination: t.arg.string({ required: true, description: "UN/LOCODE, e.g. NLRTM." }),
      date: t.arg.string({ required: true, description: "YYYY-MM-DD." }),
      // Null is read as absent: the default then applies, whichever surface passed the null.
      weekRange: t.arg.int({
        required: false,
        defaultValue: DEFAULT_WEEK_RANGE,
        description: `1 to ${MAX_WEEK_RANGE} weeks.`,
      }),
      dateType: t.arg({ type: ScheduleDateTypeEnum, required: false, defaultValue: DEFAULT_DATE_TYPE }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.lookups.schedules.search(ctx.principal, {
        origin: args.origin,
        destination: args.destination,
        date: args.date,
        weekRange: args.weekRange ?? DEFAULT_WEEK_RANGE,
        dateType: args.dateType ?? DEFAULT_DATE_TYPE,
      }),
  }),
}));
