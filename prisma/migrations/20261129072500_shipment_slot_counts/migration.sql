-- CreateTable
CREATE TABLE "shipment_slot_counts" (
    "organization_id" TEXT NOT NULL,
    "cycle_start" TIMESTAMP(3) NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    "held" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "shipment_slot_counts_pkey" PRIMARY KEY ("organization_id","cycle_start")
);

-- Hand-written (issue 37 item 2): an organisation's slot usage per billing cycle, kept by a row
-- trigger on "shipment_slots" in the transaction that takes, frees or takes back a slot, so reading
-- usage is one primary-key read instead of two counts over the cycle's slots. `used` counts the
-- cycle's distinct references (never goes down when a slot is freed), `held` those not freed.
-- A slot is taken under the organisation's advisory lock (SlotsService.reserve), so the upsert here
-- never races another taking of the same organisation. TRUNCATE and session_replication_role =
-- replica do not fire the trigger: whatever does either must put "shipment_slot_counts" back with
-- "shipment_slots" (the sandbox world does).
CREATE FUNCTION "shipment_slot_counts_apply"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "shipment_slot_counts" AS c ("organization_id", "cycle_start", "used", "held")
    VALUES (OLD."organization_id", OLD."cycle_start", -1, CASE WHEN OLD."released_at" IS NULL THEN -1 ELSE 0 END)
    ON CONFLICT ("organization_id", "cycle_start")
    DO UPDATE SET "used" = c."used" + excluded."used", "held" = c."held" + excluded."held";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "shipment_slot_counts" AS c ("organization_id", "cycle_start", "used", "held")
    VALUES (NEW."organization_id", NEW."cycle_start", 1, CASE WHEN NEW."released_at" IS NULL THEN 1 ELSE 0 END)
    ON CONFLICT ("organization_id", "cycle_start")
    DO UPDATE SET "used" = c."used" + excluded."used", "held" = c."held" + excluded."held";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "shipment_slots_count" AFTER INSERT OR UPDATE OR DELETE ON "shipment_slots"
  FOR EACH ROW EXECUTE FUNCTION "shipment_slot_counts_apply"();

-- Backfill. CREATE TRIGGER above locks "shipment_slots" against writes until this migration
-- commits, so no slot is taken between the trigger and the counts.
INSERT INTO "shipment_slot_counts" ("organization_id", "cycle_start", "used", "held")
SELECT "organization_id", "cycle_start", count(*), count(*) FILTER (WHERE "released_at" IS NULL)
  FROM "shipment_slots" GROUP BY "organization_id", "cycle_start";
