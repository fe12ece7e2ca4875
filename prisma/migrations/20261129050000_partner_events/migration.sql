-- Issue 41: partner sources, the events they post (idempotent by the sender's id), and the carrier's
-- own answer for documents whose versions merge partner events.
CREATE TABLE "partner_sources" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "signing_secret" TEXT NOT NULL,
    "last_event_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "removed_at" TIMESTAMP(3),

    CONSTRAINT "partner_sources_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "partner_sources_organization_id_idx" ON "partner_sources"("organization_id");

CREATE TABLE "partner_events" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "sender_event_id" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,
    "reference_key" TEXT NOT NULL,
    "facts" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "partner_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "partner_events_source_id_sender_event_id_key" ON "partner_events"("source_id", "sender_event_id");
CREATE INDEX "partner_events_organization_id_reference_key_idx" ON "partner_events"("organization_id", "reference_key");

CREATE TABLE "carrier_answers" (
    "document_id" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "stored_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "carrier_answers_pkey" PRIMARY KEY ("document_id")
);
