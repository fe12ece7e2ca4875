-- An organisation-wide change (a shipment tracked, a failure recorded) recomputes the organisation's
-- rows whose free time was never computed or is older than their last write. Both lookups read every
-- row of the organisation without these indexes, once per change: a refresh worker beside 100,000
-- shipments of one organisation spent most of its database time there. Each index holds only the rows
-- waiting for their recompute, so it stays small; the conditions are the lookups' own
-- (src/domain/shipments/shipment-free-time.ts, `onChange`).
CREATE INDEX "shipments_free_time_unset_idx" ON "shipments" ("organization_id")
  WHERE "deleted_at" IS NULL AND "free_time_at" IS NULL;
CREATE INDEX "shipments_free_time_stale_idx" ON "shipments" ("organization_id")
  WHERE "deleted_at" IS NULL AND "free_time_at" < "updated_at";
