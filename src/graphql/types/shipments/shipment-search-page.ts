import { z } from "zod";
import { type ShipmentFilter, searchShipments } from "../../../domain/shipments/shipment-filter";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";
import { ShipmentFilterInput } from "./shipment-filter";
import { shipmentsInOrder } from "./shipments-in-order";

const ShipmentSearchPageRef = builder
  .objectRef<{ total: number; page: number; pageSize: number; ids: string[] }>("ShipmentSearchPage")
  .implement({
    fields: (t) => ({
      total: t.exposeInt("total", { description: "Shipments matching the filter." }),
      page: t.exposeInt("page"),
      pageSize: t.exposeInt("pageSize"),
      items: t.prismaField({
        type: ["Shipment"],
        extensions: { listSize: MAX_PAGE_SIZE },
        resolve: (query, p, _a, ctx) => shipmentsInOrder(ctx.services.db.prisma, query, p.ids),
      }),
    }),
  });

const ShipmentSortEnum = builder.enumType("ShipmentSort", {
  values: {
    NEWEST: { value: "newest", description: "Most recently added first." },
    ARRIVAL: { value: "arrival", description: "Earliest ETA (or arrival) first; without an ETA last." },
    ARRIVAL_DESC: { value: "arrival_desc", description: "Latest ETA first; without an ETA last." },
    REFERENCE: { value: "reference", description: "By reference, A to Z." },
    CARRIER: { value: "carrier", description: "By carrier SCAC, A to Z; without a carrier last." },
    STATUS: { value: "status", description: "By status." },
    SYNCED: { value: "synced", description: "Most recently synced with the carrier first." },
    LAST_FREE_DAY: {
      value: "last_free_day",
      description:
        "The earliest last free day of a running demurrage or detention clock first; none running: last.",
    },
  } as const,
});

builder.queryFields((t) => ({
  shipmentSearch: t.withAuth({ developerMode: true }).field({
    type: ShipmentSearchPageRef,
    nullable: true,
    description:
      "The organisation's tracked shipments (teammates' included) that match a filter, in the order asked (newest first by default). Stored data only: no carrier call.",
    args: {
      filter: t.arg({ type: ShipmentFilterInput, required: false }),
      sort: t.arg({
        type: ShipmentSortEnum,
        required: false,
        defaultValue: "newest",
        description: "The order of the list; newest first when left out.",
      }),
      page: t.arg.int({
        required: false,
        defaultValue: 1,
        validate: z.number().int().min(1, "page starts at 1"),
      }),
      pageSize: t.arg.int({
        required: false,
        defaultValue: DEFAULT_PAGE_SIZE,
        validate: z.number().int().min(1).max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`),
      }),
    },
    resolve: async (_r, args, ctx) => {
      const page = args.page ?? 1;
      const pageSize = args.pageSize ?? DEFAULT_PAGE_SIZE;
      const f = args.filter;
      const now = ctx.services.clock.now();
      const within = arrivingWindow(f?.arrivingWithinDays ?? null, now);
      const filter: ShipmentFilter = {
        status: f?.status ?? undefined,
        active: within ? true : (f?.active ?? undefined),
        failed: f?.failed ?? undefined,
        carrier: f?.carrier ?? undefined,
        customer: f?.customer ?? undefined,
        reference: f?.reference ?? undefined,
        etaFrom: latest(f?.etaFrom, within?.from),
        etaTo: earliest(f?.etaTo, within?.to),
        port: f?.port ?? undefined,
        delayed: f?.delayed ?? undefined,
        archived: f?.archived ?? undefined,
        etaMoved: f?.etaMoved ?? undefined,
        lastFreeDaySoon: f?.lastFreeDaySoon ?? undefined,
        lastFreeDayPassed: f?.lastFreeDayPassed ?? undefined,
        onHold: f?.onHold ?? undefined,
        // The core's clock, never the caller's: the kept instants are compared with it in the query.
        asOf: now,
      };
      const { total, ids } = await searchShipments(ctx.services.db.prisma, ctx.principal, {
        filter,
        page,
        pageSize,
        sort: args.sort ?? "newest",
      });
      return { total, page, pageSize, ids };
    },
  }),
}));

/** `arrivingWithinDays` as instants on the server's clock: the window starts now. */
function arrivingWindow(days: number | null, now: Date): { from: Date; to: Date } | null {
  return days === null ? null : { from: now, to: new Date(now.getTime() + days * 86_400_000) };
}

const latest = (a: Date | null | undefined, b: Date | undefined): Date | undefined =>
  a && b ? (a > b ? a : b) : (a ?? b);
const earliest = (a: Date | null | undefined, b: Date | undefined): Date | undefined =>
  a && b ? (a < b ? a : b) : (a ?? b);
