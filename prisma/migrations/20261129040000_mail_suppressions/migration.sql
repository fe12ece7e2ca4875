-- Issue 43: addresses that hard-bounced or complained stop receiving mail until their owner resumes it.
CREATE TABLE "mail_suppressions" (
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "dedupe_key" TEXT,
    "occurred_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mail_suppressions_pkey" PRIMARY KEY ("address")
);
