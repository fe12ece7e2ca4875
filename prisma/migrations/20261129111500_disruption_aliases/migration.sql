-- Ids of fragments merged into another disruption (issue 35): they keep answering as that disruption.
-- CreateTable
CREATE TABLE "disruption_aliases" (
    "id" TEXT NOT NULL,
    "disruption_id" TEXT NOT NULL,
    "merged_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "disruption_aliases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "disruption_aliases_disruption_id_idx" ON "disruption_aliases"("disruption_id");

-- AddForeignKey
ALTER TABLE "disruption_aliases" ADD CONSTRAINT "disruption_aliases_disruption_id_fkey" FOREIGN KEY ("disruption_id") REFERENCES "disruptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
