-- The current predictive ETA lives on the shipment row, computed when a version is stored and by the
-- eta worker, so reads never compute or write one (issue 18: no write on the read path).
ALTER TABLE "shipments" ADD COLUMN "predicted_eta" JSONB;
ALTER TABLE "shipments" ADD COLUMN "eta_due_at" TIMESTAMP(3);
CREATE INDEX "shipments_eta_due_at_idx" ON "shipments"("eta_due_at");
-- Shipments stored before: the worker computes theirs once (and stops following those it cannot).
UPDATE "shipments" SET "eta_due_at" = CURRENT_TIMESTAMP
 WHERE "document_id" IS NOT NULL AND "deleted_at" IS NULL AND "failed_at" IS NULL;
