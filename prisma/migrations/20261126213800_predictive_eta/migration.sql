-- Predictive ETA snapshots (issue 21): every prediction served, kept for scoring after arrival.
CREATE TABLE "predictive_eta_snapshots" (
    "id" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,
    "document_version_id" TEXT,
    "computed_at" TIMESTAMP(3) NOT NULL,
    "p50" TIMESTAMP(3) NOT NULL,
    "p80" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "confidence" TEXT NOT NULL,
    "horizon_hours" DOUBLE PRECISION NOT NULL,
    "horizon_bucket" TEXT NOT NULL,
    "carrier_eta" TIMESTAMP(3),

    CONSTRAINT "predictive_eta_snapshots_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "predictive_eta_snapshots_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "predictive_eta_snapshots_shipment_id_computed_at_idx" ON "predictive_eta_snapshots"("shipment_id", "computed_at");
