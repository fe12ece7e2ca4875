-- Predictive ETA (issue 34): the reason a prediction fell back to the carrier, the scoring of each kept
-- snapshot once the vessel has arrived, an index for the retention job, and a short per-vessel fix history.
-- AlterTable
ALTER TABLE "predictive_eta_snapshots" ADD COLUMN     "ata" TIMESTAMP(3),
ADD COLUMN     "before_p50" BOOLEAN,
ADD COLUMN     "before_p80" BOOLEAN,
ADD COLUMN     "carrier_error_hours" DOUBLE PRECISION,
ADD COLUMN     "fallback_reason" TEXT,
ADD COLUMN     "p50_error_hours" DOUBLE PRECISION,
ADD COLUMN     "scored_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "vessel_fix_history" (
    "vessel_key" TEXT NOT NULL,
    "fixed_at" TIMESTAMP(3) NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lng" DOUBLE PRECISION NOT NULL,
    "speed_knots" DOUBLE PRECISION,
    "course_deg" DOUBLE PRECISION,

    CONSTRAINT "vessel_fix_history_pkey" PRIMARY KEY ("vessel_key","fixed_at")
);

-- CreateIndex
CREATE INDEX "vessel_fix_history_fixed_at_idx" ON "vessel_fix_history"("fixed_at");

-- CreateIndex
CREATE INDEX "predictive_eta_snapshots_computed_at_idx" ON "predictive_eta_snapshots"("computed_at");
