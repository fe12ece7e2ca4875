-- AlterTable
ALTER TABLE "shipments" ADD COLUMN     "disruptions_matched_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "disruption_sources" (
    "id" TEXT NOT NULL,
    "publisher" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'news',
    "authoritative" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "etag" TEXT,
    "last_modified" TEXT,
    "next_fetch_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_fetched_at" TIMESTAMP(3),
    "last_success_at" TIMESTAMP(3),
    "last_error_at" TIMESTAMP(3),
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "items_seen" INTEGER NOT NULL DEFAULT 0,
    "items_accepted" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "disruption_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "disruption_items" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "identity" TEXT NOT NULL,
    "canonical_link" TEXT,
    "publisher" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "folded_title" TEXT NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,
    "disruption_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disruption_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "disruptions" (
    "id" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "ports" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "carriers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "countries" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "chokepoints" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "headline" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "sources" JSONB NOT NULL DEFAULT '[]',
    "first_seen" TIMESTAMP(3) NOT NULL,
    "last_updated" TIMESTAMP(3) NOT NULL,
    "resolved_at" TIMESTAMP(3),
    "state" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disruptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipment_disruptions" (
    "shipment_id" TEXT NOT NULL,
    "disruption_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "match_types" TEXT[],
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shipment_disruptions_pkey" PRIMARY KEY ("shipment_id","disruption_id")
);

-- CreateIndex
CREATE INDEX "disruption_sources_enabled_next_fetch_at_idx" ON "disruption_sources"("enabled", "next_fetch_at");

-- CreateIndex
CREATE UNIQUE INDEX "disruption_items_identity_key" ON "disruption_items"("identity");

-- CreateIndex
CREATE INDEX "disruption_items_canonical_link_idx" ON "disruption_items"("canonical_link");

-- CreateIndex
CREATE INDEX "disruption_items_publisher_published_at_idx" ON "disruption_items"("publisher", "published_at");

-- CreateIndex
CREATE INDEX "disruption_items_disruption_id_idx" ON "disruption_items"("disruption_id");

-- CreateIndex
CREATE INDEX "disruptions_status_severity_last_updated_idx" ON "disruptions"("status", "severity", "last_updated");

-- CreateIndex
CREATE INDEX "shipment_disruptions_organization_id_disruption_id_idx" ON "shipment_disruptions"("organization_id", "disruption_id");

-- AddForeignKey
ALTER TABLE "disruption_items" ADD CONSTRAINT "disruption_items_disruption_id_fkey" FOREIGN KEY ("disruption_id") REFERENCES "disruptions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_disruptions" ADD CONSTRAINT "shipment_disruptions_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_disruptions" ADD CONSTRAINT "shipment_disruptions_disruption_id_fkey" FOREIGN KEY ("disruption_id") REFERENCES "disruptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

