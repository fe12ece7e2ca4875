-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "failing_since" TIMESTAMP(3),
ADD COLUMN     "last_failed_at" TIMESTAMP(3),
ADD COLUMN     "lease_token" TEXT,
ADD COLUMN     "leased_until" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_status_next_attempt_at_idx" ON "webhook_deliveries"("endpoint_id", "status", "next_attempt_at");
