-- CreateTable
CREATE TABLE "organization_shipment_counts" (
    "organization_id" TEXT NOT NULL,
    "live" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "organization_shipment_counts_pkey" PRIMARY KEY ("organization_id")
);

-- AddForeignKey
ALTER TABLE "organization_shipment_counts" ADD CONSTRAINT "organization_shipment_counts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: the count is kept by statement-level triggers on "shipments", so the list's total
-- is one primary-key read however many shipments an organisation has. Each statement adds, per
-- organisation, the rows it made live minus the live rows it took away (soft delete, hard delete,
-- an update moving a shipment to another organisation); organisations whose change is 0 are not
-- touched, so the refresh's updates take no lock on the counter. Rows are upserted in
-- organisation order, so two statements touching several organisations lock them in one order.
-- Organisations that no longer exist (a cascade from a deleted organisation) are skipped.
-- TRUNCATE and session_replication_role = replica do not fire these triggers: whatever does
-- either must put "organization_shipment_counts" back with "shipments" (the sandbox world does).
CREATE FUNCTION "organization_shipment_counts_apply"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "organization_shipment_counts" AS c ("organization_id", "live")
    SELECT d."organization_id", d."live"
      FROM (SELECT "organization_id", count(*) AS "live" FROM new_rows
             WHERE "deleted_at" IS NULL GROUP BY "organization_id") d
     WHERE EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = d."organization_id")
     ORDER BY d."organization_id"
    ON CONFLICT ("organization_id") DO UPDATE SET "live" = c."live" + excluded."live";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "organization_shipment_counts" AS c ("organization_id", "live")
    SELECT d."organization_id", d."live"
      FROM (SELECT "organization_id", sum("delta") AS "live"
              FROM (SELECT "organization_id", -count(*) AS "delta" FROM old_rows
                     WHERE "deleted_at" IS NULL GROUP BY "organization_id"
                    UNION ALL
                    SELECT "organization_id", count(*) FROM new_rows
                     WHERE "deleted_at" IS NULL GROUP BY "organization_id") changes
             GROUP BY "organization_id") d
     WHERE d."live" <> 0
       AND EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = d."organization_id")
     ORDER BY d."organization_id"
    ON CONFLICT ("organization_id") DO UPDATE SET "live" = c."live" + excluded."live";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "organization_shipment_counts" AS c ("organization_id", "live")
    SELECT d."organization_id", -d."live"
      FROM (SELECT "organization_id", count(*) AS "live" FROM old_rows
             WHERE "deleted_at" IS NULL GROUP BY "organization_id") d
     WHERE EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = d."organization_id")
     ORDER BY d."organization_id"
    ON CONFLICT ("organization_id") DO UPDATE SET "live" = c."live" + excluded."live";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "shipments_count_insert" AFTER INSERT ON "shipments"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_shipment_counts_apply"();

CREATE TRIGGER "shipments_count_update" AFTER UPDATE ON "shipments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_shipment_counts_apply"();

CREATE TRIGGER "shipments_count_delete" AFTER DELETE ON "shipments"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_shipment_counts_apply"();

-- Backfill. CREATE TRIGGER above locks "shipments" against writes until this migration commits,
-- so no write falls between the triggers and the count.
INSERT INTO "organization_shipment_counts" ("organization_id", "live")
SELECT "organization_id", count(*) FROM "shipments" WHERE "deleted_at" IS NULL GROUP BY "organization_id";
