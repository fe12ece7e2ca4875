import { localDate } from "../../../domain/demurrage/calendar";
import { nextLocalMidnight } from "../../../domain/ports/local-midnight";
import {
  type BoxFreeTime,
  type BoxHold,
  type FreeTimeFacts,
  LAST_FREE_DAY_SOON_DAYS,
} from "../../../domain/shipments/shipment-free-time";
import { ETA_MOVED_HOURS } from "../../../domain/tracking/summary-facts";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";

const DAY_MS = 86_400_000;

const ContainerFreeTimeRef = builder
  .objectRef<BoxFreeTime & { overdue: boolean }>("ContainerFreeTime")
  .implement({
    description:
      "One box's last free days at the port of discharge, kept when the version, terminal facts or contract terms change.",
    fields: (t) => ({
      container: t.exposeString("container"),
      demurrageLastFreeDay: t.exposeString("demurrageLastFreeDay", {
        nullable: true,
        description:
          "Port-local YYYY-MM-DD: the terminal's day when it gives one, else counted from the terms (before discharge, from the expected discharge); null when neither.",
      }),
      detentionLastFreeDay: t.exposeString("detentionLastFreeDay", {
        nullable: true,
        description: "Port-local YYYY-MM-DD once the box has left the port; null before.",
      }),
      running: t.string({
        nullable: true,
        description: "The clock running now: demurrage, detention or combined; null when none runs.",
        resolve: (b) => b.running,
      }),
      overdue: t.boolean({
        description:
          "The running clock's last free day has passed at the port of discharge (on the service's clock): charges accrue.",
        resolve: (b) => b.overdue,
      }),
    }),
  });

const ContainerHoldRef = builder.objectRef<BoxHold>("ContainerHold").implement({
  description:
    "A current hold on a box from its terminal facts (the terminal's answer or the carrier's events).",
  fields: (t) => ({
    container: t.exposeString("container"),
    type: t.exposeString("type", { description: "customs, freight (the line's), terminal, usda or other." }),
    status: t.exposeString("status", { description: "hold, or pending (expected to be lifted)." }),
  }),
});

interface FreeTimeRow {
  freeTime: unknown;
  lastFreeDayStartsAt: Date | null;
  freeTimeEndsAt: Date | null;
  holdsUntil: Date | null;
}

interface FreeTimeView {
  facts: FreeTimeFacts;
  soon: boolean;
  passed: boolean;
}

const ShipmentFreeTimeRef = builder.objectRef<FreeTimeView>("ShipmentFreeTime").implement({
  description:
    "Demurrage and detention free time as the list shows it: each box's last free days and the shipment's earliest of a running clock, kept on the row (no assessment per read).",
  fields: (t) => ({
    lastFreeDay: t.string({
      nullable: true,
      description:
        "The earliest last free day of a running clock (port-local YYYY-MM-DD); null when none runs.",
      resolve: (v) => v.facts.lastFreeDay,
    }),
    lastFreeDaySoon: t.boolean({
      description: `That day is today or within ${LAST_FREE_DAY_SOON_DAYS} days at the port, not passed.`,
      resolve: (v) => v.soon,
    }),
    lastFreeDayPassed: t.boolean({
      description: "That day has passed at the port: the running clock is overdue and charges accrue.",
      resolve: (v) => v.passed,
    }),
    containers: t.field({
      type: [ContainerFreeTimeRef],
      extensions: LIST_SIZE(10),
      resolve: (v, _a, ctx) => {
        const now = ctx.services.clock.now();
        // Each box's day passes at the port's midnight: a kept answer holds until the next one.
        answerValidUntil(nextLocalMidnight(now, v.facts.timeZone));
        const today = localDate(now, v.facts.timeZone);
        return v.facts.containers.map((box) => {
          const day = box.running === "detention" ? box.detentionLastFreeDay : box.demurrageLastFreeDay;
          return { ...box, overdue: box.running !== null && day !== null && day < today };
        });
      },
    }),
  }),
});

/** Now on the core's clock; a kept answer holds until the first of the row's instants is reached. */
function nowFor(row: FreeTimeRow, clock: { now(): Date }): number {
  const now = clock.now().getTime();
  const soonFrom = row.lastFreeDayStartsAt
    ? row.lastFreeDayStartsAt.getTime() - LAST_FREE_DAY_SOON_DAYS * DAY_MS
    : null;
  const next = [soonFrom, row.freeTimeEndsAt?.getTime() ?? null, row.holdsUntil?.getTime() ?? null]
    .filter((at): at is number => at !== null && at > now)
    .sort((a, b) => a - b)[0];
  answerValidUntil(next ?? null);
  return now;
}

builder.prismaObjectFields("Shipment", (t) => ({
  freeTime: t.field({
    type: ShipmentFreeTimeRef,
    nullable: true,
    description:
      "Last free days per box and whether the earliest running one is soon or passed; null until computed (no document yet).",
    resolve: (s, _a, ctx) => {
      if (!s.freeTime) return null;
      const now = nowFor(s, ctx.services.clock);
      const ends = s.freeTimeEndsAt?.getTime() ?? null;
      const starts = s.lastFreeDayStartsAt?.getTime() ?? null;
      return {
        facts: s.freeTime as unknown as FreeTimeFacts,
        passed: ends !== null && ends <= now,
        soon:
          ends !== null && starts !== null && ends > now && starts <= now + LAST_FREE_DAY_SOON_DAYS * DAY_MS,
      };
    },
  }),
  holds: t.field({
    type: [ContainerHoldRef],
    extensions: LIST_SIZE(5),
    description: "The boxes' current holds (terminal facts of the last 24 hours); empty when none.",
    resolve: (s, _a, ctx) => {
      const now = nowFor(s, ctx.services.clock);
      if (!s.holdsUntil || s.holdsUntil.getTime() <= now) return [];
      return (s.freeTime as unknown as FreeTimeFacts | null)?.holds ?? [];
    },
  }),
}));

const ShipmentExceptionRulesRef = builder
  .objectRef<{ lastFreeDaySoonDays: number; etaMovedHours: number }>("ShipmentExceptionRules")
  .implement({
    description:
      "The core's thresholds behind the list's exceptions, so a surface can name them without deciding them.",
    fields: (t) => ({
      lastFreeDaySoonDays: t.exposeInt("lastFreeDaySoonDays", {
        description: "ShipmentFilter.lastFreeDaySoon: the last free day is today or within this many days.",
      }),
      etaMovedHours: t.exposeInt("etaMovedHours", {
        description: "ShipmentFilter.etaMoved: the last update moved the ETA by at least this many hours.",
      }),
    }),
  });

builder.queryFields((t) => ({
  shipmentExceptionRules: t.field({
    type: ShipmentExceptionRulesRef,
    description: "The thresholds of the shipment list's exceptions (last free day soon, ETA moved).",
    authScopes: { developerMode: true },
    resolve: () => ({ lastFreeDaySoonDays: LAST_FREE_DAY_SOON_DAYS, etaMovedHours: ETA_MOVED_HOURS }),
  }),
}));
