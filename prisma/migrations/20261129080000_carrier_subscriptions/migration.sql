-- CreateTable
CREATE TABLE "carrier_subscriptions" (
    "id" TEXT NOT NULL,
    "carrier_scac" TEXT NOT NULL,
    "reference_type" "ReferenceKind" NOT NULL,
    "reference_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "subscription_id" TEXT,
    "callback_token" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "events" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL,
    "renewed_at" TIMESTAMP(3),
    "last_push_at" TIMESTAMP(3),

    CONSTRAINT "carrier_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "carrier_subscriptions_callback_token_key" ON "carrier_subscriptions"("callback_token");

-- CreateIndex
CREATE UNIQUE INDEX "carrier_subscriptions_carrier_scac_reference_type_reference_key_key" ON "carrier_subscriptions"("carrier_scac", "reference_type", "reference_key");
