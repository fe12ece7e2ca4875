-- CreateTable
CREATE TABLE "notification_preferences" (
    "user_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "email_enabled" BOOLEAN NOT NULL DEFAULT true,
    "status_changes" BOOLEAN NOT NULL DEFAULT true,
    "eta_changes" BOOLEAN NOT NULL DEFAULT true,
    "eta_change_min_hours" INTEGER NOT NULL DEFAULT 6,
    "vessel_arrival" BOOLEAN NOT NULL DEFAULT true,
    "last_free_day_reminders" BOOLEAN NOT NULL DEFAULT true,
    "disruptions" BOOLEAN NOT NULL DEFAULT true,
    "daily_digest" BOOLEAN NOT NULL DEFAULT false,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "quiet_hours_start" TEXT,
    "quiet_hours_end" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "shipment_followers" (
    "shipment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shipment_followers_pkey" PRIMARY KEY ("shipment_id","user_id")
);

-- CreateTable
CREATE TABLE "shipment_changes" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shipment_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_messages" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "user_id" TEXT,
    "dedupe_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "shipment_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "transport" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL,
    "leased_until" TIMESTAMP(3),
    "lease_token" TEXT,
    "sent_at" TIMESTAMP(3),
    "last_error" TEXT,
    "message_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mail_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_preferences_organization_id_idx" ON "notification_preferences"("organization_id");

-- CreateIndex
CREATE INDEX "shipment_followers_user_id_idx" ON "shipment_followers"("user_id");

-- CreateIndex
CREATE INDEX "shipment_changes_shipment_id_created_at_idx" ON "shipment_changes"("shipment_id", "created_at");

-- CreateIndex
CREATE INDEX "shipment_changes_created_at_idx" ON "shipment_changes"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_dedupe_key_key" ON "mail_messages"("dedupe_key");

-- CreateIndex
CREATE INDEX "mail_messages_status_next_attempt_at_idx" ON "mail_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "mail_messages_organization_id_created_at_idx" ON "mail_messages"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "shipment_followers" ADD CONSTRAINT "shipment_followers_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: preferences and follows go with their user, without a relation field in the User
-- model (so the model other features edit stays as it was).
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "shipment_followers" ADD CONSTRAINT "shipment_followers_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
