-- Saved shipment-list filters of dashboard users (issue 23).
CREATE TABLE "saved_shipment_filters" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "saved_shipment_filters_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "saved_shipment_filters_user_id_idx" ON "saved_shipment_filters"("user_id");
ALTER TABLE "saved_shipment_filters" ADD CONSTRAINT "saved_shipment_filters_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
