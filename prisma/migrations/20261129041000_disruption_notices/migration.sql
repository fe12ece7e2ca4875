-- Issue 43: which followed shipments each person was told a disruption touches, so shipments it reaches
-- later get one follow-up mail of their own (and no shipment is listed twice).
CREATE TABLE "disruption_notices" (
    "user_id" TEXT NOT NULL,
    "disruption_id" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,
    "mailed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "disruption_notices_pkey" PRIMARY KEY ("user_id","disruption_id","shipment_id")
);

CREATE INDEX "disruption_notices_disruption_id_idx" ON "disruption_notices"("disruption_id");

-- Grouped mails sent before this table existed listed every followed shipment matched at the time.
INSERT INTO "disruption_notices" ("user_id", "disruption_id", "shipment_id", "mailed_at")
SELECT DISTINCT f.user_id, m.disruption_id, m.shipment_id, mm.created_at
  FROM mail_messages mm
  JOIN shipment_followers f ON mm.user_id = f.user_id
  JOIN shipment_disruptions m ON m.shipment_id = f.shipment_id
 WHERE mm.dedupe_key = 'disruption:' || f.user_id || ':' || m.disruption_id
ON CONFLICT DO NOTHING;
