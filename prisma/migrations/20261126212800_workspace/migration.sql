-- CreateEnum
CREATE TYPE "WorkspaceDocumentType" AS ENUM ('bill_of_lading', 'commercial_invoice', 'packing_list', 'arrival_notice', 'delivery_order', 'customs_entry', 'other');

-- CreateEnum
CREATE TYPE "TicketStatus" AS ENUM ('NEW', 'OPEN', 'PENDING', 'ON_HOLD', 'SOLVED', 'CLOSED');

-- CreateEnum
CREATE TYPE "TicketType" AS ENUM ('QUESTION', 'INCIDENT', 'PROBLEM', 'TASK');

-- CreateEnum
CREATE TYPE "TicketPriority" AS ENUM ('LOW', 'NORMAL', 'HIGH', 'URGENT');

-- CreateEnum
CREATE TYPE "QuoteRequestStatus" AS ENUM ('PENDING', 'QUOTED', 'DECLINED', 'EXPIRED', 'BOOKING_REQUESTED', 'BOOKED');

-- CreateTable
CREATE TABLE "workspace_documents" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "uploaded_by_user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "document_type" "WorkspaceDocumentType" NOT NULL,
    "file_name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'upload',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspace_document_shipments" (
    "document_id" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,

    CONSTRAINT "workspace_document_shipments_pkey" PRIMARY KEY ("document_id","shipment_id")
);

-- CreateTable
CREATE TABLE "support_tickets" (
    "id" TEXT NOT NULL,
    "number" BIGINT NOT NULL DEFAULT 0,
    "organization_id" TEXT NOT NULL,
    "opened_by_user_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "type" "TicketType" NOT NULL,
    "priority" "TicketPriority" NOT NULL DEFAULT 'NORMAL',
    "status" "TicketStatus" NOT NULL DEFAULT 'NEW',
    "related_reference" TEXT,
    "shipment_id" TEXT,
    "last_reply_at" TIMESTAMP(3),
    "last_reply_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "support_tickets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "support_ticket_replies" (
    "id" TEXT NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "author_name" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "support_ticket_replies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_requests" (
    "id" TEXT NOT NULL,
    "number" BIGINT NOT NULL DEFAULT 0,
    "organization_id" TEXT NOT NULL,
    "requested_by_user_id" TEXT NOT NULL,
    "origin_locode" TEXT NOT NULL,
    "destination_locode" TEXT NOT NULL,
    "container_type" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "ready_date" TIMESTAMP(3) NOT NULL,
    "commodity" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" "QuoteRequestStatus" NOT NULL DEFAULT 'PENDING',
    "quote_total" DECIMAL(14,2),
    "quote_currency" TEXT,
    "quote_valid_until" TIMESTAMP(3),
    "quote_carrier_scac" TEXT,
    "quote_transit_days" INTEGER,
    "quoted_at" TIMESTAMP(3),
    "decline_reason" TEXT,
    "booking_requested_at" TIMESTAMP(3),
    "booked_at" TIMESTAMP(3),
    "booking_reference" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quote_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workspace_documents_organization_id_created_at_idx" ON "workspace_documents"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "workspace_document_shipments_shipment_id_idx" ON "workspace_document_shipments"("shipment_id");

-- CreateIndex
CREATE INDEX "support_tickets_status_updated_at_idx" ON "support_tickets"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "support_tickets_organization_id_number_key" ON "support_tickets"("organization_id", "number");

-- CreateIndex
CREATE INDEX "support_ticket_replies_ticket_id_created_at_idx" ON "support_ticket_replies"("ticket_id", "created_at");

-- CreateIndex
CREATE INDEX "quote_requests_organization_id_fingerprint_created_at_idx" ON "quote_requests"("organization_id", "fingerprint", "created_at");

-- CreateIndex
CREATE INDEX "quote_requests_status_created_at_idx" ON "quote_requests"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "quote_requests_organization_id_number_key" ON "quote_requests"("organization_id", "number");

-- AddForeignKey
ALTER TABLE "workspace_documents" ADD CONSTRAINT "workspace_documents_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_documents" ADD CONSTRAINT "workspace_documents_uploaded_by_user_id_fkey" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_document_shipments" ADD CONSTRAINT "workspace_document_shipments_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "workspace_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_document_shipments" ADD CONSTRAINT "workspace_document_shipments_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_opened_by_user_id_fkey" FOREIGN KEY ("opened_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_ticket_replies" ADD CONSTRAINT "support_ticket_replies_ticket_id_fkey" FOREIGN KEY ("ticket_id") REFERENCES "support_tickets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_requested_by_user_id_fkey" FOREIGN KEY ("requested_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: tickets (TCK-<n>) and quote requests (RFQ-<n>) are numbered per organisation by the
-- counter trigger of migration tenant_numbering_and_documents, like shipments: a tenant's numbers tell
-- nothing about other tenants' volume.
CREATE TRIGGER "support_tickets_number" BEFORE INSERT ON "support_tickets"
  FOR EACH ROW EXECUTE FUNCTION "organization_number"('support_tickets');

CREATE TRIGGER "quote_requests_number" BEFORE INSERT ON "quote_requests"
  FOR EACH ROW EXECUTE FUNCTION "organization_number"('quote_requests');
