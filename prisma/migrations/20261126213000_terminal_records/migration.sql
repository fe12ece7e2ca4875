-- Issue 21: terminal records. What terminals answered per box and terminal, the carrier's hold and
-- release signals for the box, and the queue of terminal checks.
-- CreateTable
CREATE TABLE "terminal_records" (
    "id" TEXT NOT NULL,
    "container_number" TEXT NOT NULL,
    "terminal_code" TEXT NOT NULL,
    "terminal_name" TEXT NOT NULL,
    "un_locode" TEXT,
    "carrier_scac" TEXT,
    "requested_at" TIMESTAMP(3) NOT NULL,
    "answer" JSONB,
    "answered_at" TIMESTAMP(3),
    "carrier_signals" JSONB,
    "events" JSONB NOT NULL DEFAULT '[]',
    "last_outcome" TEXT,
    "next_check_at" TIMESTAMP(3),

    CONSTRAINT "terminal_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "terminal_records_container_number_terminal_code_key" ON "terminal_records"("container_number", "terminal_code");

-- CreateIndex
CREATE INDEX "terminal_records_next_check_at_idx" ON "terminal_records"("next_check_at");
