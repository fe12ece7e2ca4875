-- Each box's full D&D schedule kept on the shipment row when its inputs change (issue 37 item 2): the
-- clocks as the read would assess them, what they were computed from, and until when they hold (the
-- port's next midnight, or sooner). Reads serve it while it holds; the `dnd` worker recomputes the rows
-- whose schedule has passed its boundary, oldest first.
ALTER TABLE "shipments" ADD COLUMN "dnd_schedule" JSONB;
ALTER TABLE "shipments" ADD COLUMN "dnd_valid_until" TIMESTAMP(3);
CREATE INDEX "shipments_dnd_valid_until_idx" ON "shipments"("dnd_valid_until");
