-- Issue 43: new moments people choose (vessel departure and transshipment, terminal pickup and holds,
-- tickets and quotes), and the key one-click unsubscribe links are signed with.
ALTER TABLE "notification_preferences" ADD COLUMN "vessel_departure" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "terminal_updates" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "workspace_updates" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "mail_signing_keys" (
    "id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mail_signing_keys_pkey" PRIMARY KEY ("id")
);

-- A reminder whose moment has passed is dropped rather than sent late.
ALTER TABLE "mail_messages" ADD COLUMN "expires_at" TIMESTAMP(3);
