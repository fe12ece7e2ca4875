import type { ScheduleOutcome } from "../../../domain/schedules/schedules.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { LookupAllowanceRef } from "../lookups/lookup-allowance";
import { SailingScheduleRef } from "./sailing-schedule";
import { ScheduleDateTypeEnum } from "./schedule-date-type";

export const SailingSchedulesRef = builder
  .objectRef<Extract<ScheduleOutcome, { kind: "found" }>>("SailingSchedules")
  .implement({
    fields: (t) => ({
      items: t.field({
        type: [SailingScheduleRef],
        extensions: LIST_SIZE(200),
        resolve: (o) => o.answer.items,
      }),
      total: t.int({ resolve: (o) => o.answer.items.length }),
      weekRange: t.int({
        description: "The weeks searched, the default applied when none was asked.",
        resolve: (o) => o.query.weekRange,
      }),
      dateType: t.field({
        type: ScheduleDateTypeEnum,
        description: "The window searched, the default applied when none was asked.",
        resolve: (o) => o.query.dateType,
      }),
      cached: t.exposeBoolean("cached", { description: "Served from the 30-minute cache (free)." }),
      carriersAsked: t.stringList({ resolve: (o) => o.answer.carriersAsked }),
      carriersUnavailable: t.stringList({
        description: "Carriers whose schedules could not be read: their sailings are missing.",
        resolve: (o) => o.answer.carriersUnavailable,
      }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });
