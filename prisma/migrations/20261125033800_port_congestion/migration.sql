-- Issue 19: port congestion. Anchorage waits and arrivals the sampler saw, daily signals per port,
-- daily readings (the newest flagged `latest`, the board), and the per-port work queue.
-- CreateTable
CREATE TABLE "port_anchorage_waits" (
    "id" TEXT NOT NULL,
    "locode" TEXT NOT NULL,
    "vessel_key" TEXT NOT NULL,
    "anchored_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "berthed_at" TIMESTAMP(3),

    CONSTRAINT "port_anchorage_waits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "port_arrivals" (
    "locode" TEXT NOT NULL,
    "vessel_key" TEXT NOT NULL,
    "arrived_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "port_arrivals_pkey" PRIMARY KEY ("locode","vessel_key","arrived_at")
);

-- CreateTable
CREATE TABLE "port_congestion_signals" (
    "locode" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "anchorage_wait_h" DOUBLE PRECISION,
    "anchorage_n" INTEGER NOT NULL DEFAULT 0,
    "dwell_d" DOUBLE PRECISION,
    "dwell_n" INTEGER NOT NULL DEFAULT 0,
    "eta_slip_h" DOUBLE PRECISION,
    "eta_slip_n" INTEGER NOT NULL DEFAULT 0,
    "schedule_deviation_h" DOUBLE PRECISION,
    "schedule_deviation_n" INTEGER NOT NULL DEFAULT 0,
    "bunching" DOUBLE PRECISION,
    "arrivals" INTEGER NOT NULL DEFAULT 0,
    "vessels_waiting" INTEGER NOT NULL DEFAULT 0,
    "longest_wait_h" DOUBLE PRECISION,
    "newest_input_at" TIMESTAMP(3),
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "port_congestion_signals_pkey" PRIMARY KEY ("locode","day")
);

-- CreateTable
CREATE TABLE "port_congestion_readings" (
    "locode" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "latest" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lng" DOUBLE PRECISION NOT NULL,
    "score" INTEGER NOT NULL,
    "bucket" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "trend_7d" DOUBLE PRECISION NOT NULL,
    "vessels_waiting" INTEGER NOT NULL,
    "median_anchorage_wait_h" DOUBLE PRECISION,
    "longest_wait_days" DOUBLE PRECISION,
    "components" JSONB NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "port_congestion_readings_pkey" PRIMARY KEY ("locode","day")
);

-- CreateTable
CREATE TABLE "port_congestion_schedule" (
    "locode" TEXT NOT NULL,
    "next_sample_at" TIMESTAMP(3) NOT NULL,
    "next_score_at" TIMESTAMP(3) NOT NULL,
    "lease_until" TIMESTAMP(3),
    "last_scored_at" TIMESTAMP(3),

    CONSTRAINT "port_congestion_schedule_pkey" PRIMARY KEY ("locode")
);

-- CreateIndex
CREATE INDEX "port_anchorage_waits_locode_anchored_at_idx" ON "port_anchorage_waits"("locode", "anchored_at");

-- CreateIndex
CREATE INDEX "port_anchorage_waits_locode_vessel_key_last_seen_at_idx" ON "port_anchorage_waits"("locode", "vessel_key", "last_seen_at");

-- CreateIndex
CREATE INDEX "port_arrivals_locode_arrived_at_idx" ON "port_arrivals"("locode", "arrived_at");

-- CreateIndex
CREATE INDEX "port_congestion_readings_latest_score_idx" ON "port_congestion_readings"("latest", "score");

-- CreateIndex
CREATE INDEX "port_congestion_schedule_next_sample_at_idx" ON "port_congestion_schedule"("next_sample_at");

-- CreateIndex
CREATE INDEX "port_congestion_schedule_next_score_at_idx" ON "port_congestion_schedule"("next_score_at");

