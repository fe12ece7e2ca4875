-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_seq_key" ON "webhook_deliveries"("seq");
