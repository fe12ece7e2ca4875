import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import type { MisCarrierFigures, MisFigures } from "../../../domain/reports/mis-figures";
import { builder } from "../../builder";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The figures both the totals and each carrier answer. */
function figureFields<T extends MisFigures>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  return {
    shipments: t.int({
      description: "Tracked shipments that match the filters.",
      resolve: (f) => f.shipments,
    }),
    active: t.int({ description: "Still moving: not delivered or cancelled.", resolve: (f) => f.active }),
    delivered: t.int({ resolve: (f) => f.delivered }),
    delayed: t.int({ description: "More than a day later than the first ETA.", resolve: (f) => f.delayed }),
    onTime: t.int({ description: "Within a day of the first ETA, either way.", resolve: (f) => f.onTime }),
    early: t.int({ description: "More than a day earlier than the first ETA.", resolve: (f) => f.early }),
    unknown: t.int({
      description:
        "No first ETA or no arrival yet (never found, or first tracked after arrival), or cancelled.",
      resolve: (f) => f.unknown,
    }),
    assessed: t.int({
      description: "Shipments whose delay is known: the denominator of onTimePct, the average and p90.",
      resolve: (f) => f.assessed,
    }),
    onTimePct: t.float({
      nullable: true,
      description: "On time as a percentage of the assessed, one decimal; null when none is assessed.",
      resolve: (f) => f.onTimePct,
    }),
    avgDelayDays: t.float({
      nullable: true,
      description:
        "Mean of arrival minus first ETA over the assessed, in days, one decimal (negative: early).",
      resolve: (f) => f.avgDelayDays,
    }),
    p90DelayDays: t.float({
      nullable: true,
      description:
        "90th percentile (nearest rank) of arrival minus first ETA over the assessed, in days, one decimal.",
      resolve: (f) => f.p90DelayDays,
    }),
  };
}

export const MisFiguresRef = builder.objectRef<MisFigures>("MisFigures").implement({
  description: "Counts, on-time share and delay against the first ETA of a set of shipments.",
  fields: (t) => figureFields(t),
});

export const MisCarrierFiguresRef = builder.objectRef<MisCarrierFigures>("MisCarrierFigures").implement({
  description: "The report's figures for one carrier's shipments.",
  fields: (t) => ({
    sealine: t.exposeString("sealine", {
      nullable: true,
      description: "The carrier's SCAC; null for shipments no carrier is recorded for.",
    }),
    sealineName: t.string({
      nullable: true,
      description: "The carrier's name in the directory.",
      resolve: (f, _a, ctx) =>
        f.sealine ? (findCarrierByScac(f.sealine, ctx.services.carriers)?.name ?? null) : null,
    }),
    ...figureFields(t),
  }),
});
