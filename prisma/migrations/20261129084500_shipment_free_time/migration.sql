-- Free time and holds kept on the shipment row when their inputs change (issue 38, issue 37 item 2):
-- the list's exceptions "last free day approaching / passed" and "on hold" compare these instants with
-- the core's clock in the query. Existing rows are filled at start (free_time_at IS NULL).
ALTER TABLE "shipments" ADD COLUMN "free_time" JSONB;
ALTER TABLE "shipments" ADD COLUMN "last_free_day_starts_at" TIMESTAMP(3);
ALTER TABLE "shipments" ADD COLUMN "free_time_ends_at" TIMESTAMP(3);
ALTER TABLE "shipments" ADD COLUMN "holds_until" TIMESTAMP(3);
ALTER TABLE "shipments" ADD COLUMN "free_time_at" TIMESTAMP(3);
