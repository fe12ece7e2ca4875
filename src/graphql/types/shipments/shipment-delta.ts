import { z } from "zod";
import { encodeDeltaCursor, parseDeltaCursor } from "../../../domain/shipments/delta-cursor";
import { DELTA_CAP, type DeltaPage } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";
import { ShipmentRef } from "./shipment";

const ShipmentDeltaRef = builder.objectRef<DeltaPage & { since: Date }>("ShipmentDelta").implement({
  description:
    "One page of a delta sync. While `hasMore`, ask again with `since: nextUpdatedSince, after: nextCursor` until it is false; every row changed since the first `since` is then read exactly once (rows changed again while paging come again, later).",
  fields: (t) => ({
    updatedSince: t.field({ type: "DateTime", resolve: (d) => d.since }),
    count: t.int({ resolve: (d) => d.items.length }),
    items: t.field({
      type: [ShipmentRef],
      extensions: { listSize: DELTA_CAP },
      resolve: (d) => d.items,
    }),
    hasMore: t.boolean({
      description: `True when rows after this page's last one are synced at or after \`since\` too: this page stopped at ${DELTA_CAP}.`,
      resolve: (d) => d.hasMore,
    }),
    nextUpdatedSince: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "The last row's sync time: the `since` of the next page (or of the next poll once `hasMore` is false). Null on an empty page: keep the `since` asked.",
      resolve: (d) => d.next?.syncedAt ?? null,
    }),
    nextCursor: t.string({
      nullable: true,
      description:
        "Where the next page starts, after this page's last row even among rows synced in the same millisecond: pass it as `after` with `since: nextUpdatedSince`. Null on an empty page.",
      resolve: (d) => (d.next ? encodeDeltaCursor(d.next) : null),
    }),
  }),
});

builder.queryFields((t) => ({
  shipmentsUpdatedSince: t.withAuth({ developerMode: true }).field({
    type: ShipmentDeltaRef,
    nullable: true,
    description: `Delta sync: shipments whose last_synced_at is at or after \`since\`, oldest first (then by number), at most ${DELTA_CAP} a page; \`hasMore\` says another page follows.`,
    args: {
      since: t.arg({ type: "DateTime", required: true }),
      after: t.arg.string({
        required: false,
        description: "The previous page's `nextCursor`: continue after its last row.",
        validate: z.string().refine((cursor) => parseDeltaCursor(cursor).ok, {
          message: "after is not a cursor this API gave: pass nextCursor of the previous page unchanged.",
        }),
      }),
    },
    resolve: async (_r, { since, after }, ctx) => {
      const position = after ? parseDeltaCursor(after) : null;
      return {
        since,
        ...(await ctx.services.shipments.updatedSince(
          ctx.principal,
          since,
          position?.ok ? position.position : undefined,
        )),
      };
    },
  }),
}));
