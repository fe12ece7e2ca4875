-- CreateEnum
CREATE TYPE "ReferenceKind" AS ENUM ('container', 'bl', 'booking');

-- CreateEnum
CREATE TYPE "ShipmentStatus" AS ENUM ('PLANNED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED', 'UNKNOWN');

-- CreateTable
CREATE TABLE "carrier_documents" (
    "id" TEXT NOT NULL,
    "carrier_scac" TEXT NOT NULL,
    "reference_type" "ReferenceKind" NOT NULL,
    "reference_key" TEXT NOT NULL,
    "latest_version" INTEGER NOT NULL DEFAULT 0,
    "last_synced_at" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3),
    "last_failure_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "carrier_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_versions" (
    "id" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "content" JSONB NOT NULL,
    "content_hash" TEXT NOT NULL,
    "changes" JSONB NOT NULL DEFAULT '[]',
    "fetched_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "document_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipments" (
    "id" TEXT NOT NULL,
    "number" BIGSERIAL NOT NULL,
    "organization_id" TEXT NOT NULL,
    "added_by_user_id" TEXT NOT NULL,
    "reference_type" "ReferenceKind" NOT NULL,
    "reference" TEXT NOT NULL,
    "reference_key" TEXT NOT NULL,
    "carrier_scac" TEXT,
    "carrier_provided" BOOLEAN NOT NULL DEFAULT false,
    "document_id" TEXT,
    "status" "ShipmentStatus" NOT NULL DEFAULT 'UNKNOWN',
    "eta" TIMESTAMP(3),
    "ata" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),
    "failure_reason" TEXT,
    "tried_carriers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "last_synced_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "shipments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipment_slots" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "cycle_start" TIMESTAMP(3) NOT NULL,
    "reference_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMP(3),

    CONSTRAINT "shipment_slots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracking_lookups" (
    "id" SERIAL NOT NULL,
    "organization_id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "surface" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "reference_type" "ReferenceKind" NOT NULL,
    "reference_key" TEXT NOT NULL,
    "carrier_scac" TEXT,
    "outcome" TEXT NOT NULL,
    "from_cache" BOOLEAN NOT NULL DEFAULT false,
    "document_version_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tracking_lookups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "carrier_documents_reference_key_idx" ON "carrier_documents"("reference_key");

-- CreateIndex
CREATE UNIQUE INDEX "carrier_documents_carrier_scac_reference_type_reference_key_key" ON "carrier_documents"("carrier_scac", "reference_type", "reference_key");

-- CreateIndex
CREATE UNIQUE INDEX "document_versions_document_id_version_key" ON "document_versions"("document_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "shipments_number_key" ON "shipments"("number");

-- CreateIndex
CREATE INDEX "shipments_organization_id_created_at_idx" ON "shipments"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "shipments_organization_id_last_synced_at_idx" ON "shipments"("organization_id", "last_synced_at");

-- CreateIndex
CREATE INDEX "shipments_organization_id_reference_key_idx" ON "shipments"("organization_id", "reference_key");

-- CreateIndex
CREATE INDEX "shipments_document_id_idx" ON "shipments"("document_id");

-- CreateIndex
CREATE UNIQUE INDEX "shipment_slots_organization_id_cycle_start_reference_key_key" ON "shipment_slots"("organization_id", "cycle_start", "reference_key");

-- CreateIndex
CREATE INDEX "tracking_lookups_organization_id_reference_key_created_at_idx" ON "tracking_lookups"("organization_id", "reference_key", "created_at");

-- AddForeignKey
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "carrier_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_added_by_user_id_fkey" FOREIGN KEY ("added_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "carrier_documents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- At most one live (not deleted) shipment per organisation and reference: concurrent tracks of the
-- same new reference converge on one row.
CREATE UNIQUE INDEX "shipments_live_reference_key" ON "shipments" ("organization_id", "reference_type", "reference_key") WHERE "deleted_at" IS NULL;
