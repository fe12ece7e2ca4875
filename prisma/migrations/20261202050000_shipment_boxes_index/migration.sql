-- The shipments holding a box, found through an index: every change to a box (its terminal facts,
-- its carrier signals, a new version naming it) recomputes the free time of the shipments whose
-- summary lists it. Without this index that lookup read every shipment row of the database, once
-- per refreshed document: a refresh worker beside 100,000 shipments drained 438 jobs a minute
-- against 2,626 before free time was kept on the row. The expression is the one the lookup writes
-- (`summary -> 'containerNumbers' @> '["BOX"]'`, src/domain/shipments/shipment-free-time.ts).
CREATE INDEX "shipments_summary_container_numbers_idx" ON "shipments"
  USING GIN (("summary" -> 'containerNumbers') jsonb_path_ops);
