-- Issue 26 item 8: tenants learn nothing about each other.
-- 1. Shipment numbers (SHP-<n>) and history ids were platform-wide sequences: any tenant could read
--    the platform's volume from two of its own numbers. They are now counted per organisation.
-- 2. The document store was shared: a first track could be served another tenant's stored document,
--    with its fetch time, versions and ETA history. It is now partitioned per organisation.

-- Counters ------------------------------------------------------------------------------------------
CREATE TABLE "organization_counters" (
    "organization_id" TEXT NOT NULL,
    "counter" TEXT NOT NULL,
    "value" BIGINT NOT NULL,

    CONSTRAINT "organization_counters_pkey" PRIMARY KEY ("organization_id","counter")
);

ALTER TABLE "organization_counters" ADD CONSTRAINT "organization_counters_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing numbers are kept (customers stored SHP ids, webhooks carried them, history ids point at
-- documents); each organisation's counter starts after its own highest number, so from now on its
-- numbers grow only with its own shipments and calls.
DROP INDEX "shipments_number_key";
ALTER TABLE "shipments" ALTER COLUMN "number" SET DEFAULT 0;
DROP SEQUENCE IF EXISTS "shipments_number_seq";
CREATE UNIQUE INDEX "shipments_organization_id_number_key" ON "shipments"("organization_id", "number");

ALTER TABLE "tracking_lookups" ADD COLUMN "number" INTEGER NOT NULL DEFAULT 0;
UPDATE "tracking_lookups" SET "number" = "id";
CREATE UNIQUE INDEX "tracking_lookups_organization_id_number_key" ON "tracking_lookups"("organization_id", "number");

INSERT INTO "organization_counters" ("organization_id", "counter", "value")
SELECT "organization_id", 'shipments', max("number") FROM "shipments" GROUP BY "organization_id";
INSERT INTO "organization_counters" ("organization_id", "counter", "value")
SELECT "organization_id", 'tracking_lookups', max("number") FROM "tracking_lookups" GROUP BY "organization_id";

-- Hand-written: the next number of the inserting organisation, whatever number the insert carried.
-- The upsert locks the organisation's counter row until the transaction ends, so concurrent inserts
-- of one organisation (any process, PostgreSQL or PGlite) take turns and never share a number; a
-- rolled-back insert rolls its increment back, so the numbers have no gaps. Organisations do not wait
-- for each other. TG_ARGV[0] names the counter (the table).
CREATE FUNCTION "organization_number"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organization_counters" AS c ("organization_id", "counter", "value")
  VALUES (NEW."organization_id", TG_ARGV[0], 1)
  ON CONFLICT ("organization_id", "counter") DO UPDATE SET "value" = c."value" + 1
  RETURNING c."value" INTO NEW."number";
  RETURN NEW;
END
$$;

CREATE TRIGGER "shipments_number" BEFORE INSERT ON "shipments"
  FOR EACH ROW EXECUTE FUNCTION "organization_number"('shipments');

CREATE TRIGGER "tracking_lookups_number" BEFORE INSERT ON "tracking_lookups"
  FOR EACH ROW EXECUTE FUNCTION "organization_number"('tracking_lookups');

-- A row moved to another organisation (the application never does; an operator's SQL might) is
-- numbered again there, so it cannot take a number the new organisation already uses.
CREATE TRIGGER "shipments_number_moved" BEFORE UPDATE OF "organization_id" ON "shipments"
  FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id")
  EXECUTE FUNCTION "organization_number"('shipments');

CREATE TRIGGER "tracking_lookups_number_moved" BEFORE UPDATE OF "organization_id" ON "tracking_lookups"
  FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id")
  EXECUTE FUNCTION "organization_number"('tracking_lookups');

-- Documents -----------------------------------------------------------------------------------------
ALTER TABLE "carrier_documents" ADD COLUMN "organization_id" TEXT;
DROP INDEX "carrier_documents_reference_key_idx";
DROP INDEX "carrier_documents_carrier_scac_reference_type_reference_key_key";
CREATE INDEX "carrier_documents_organization_id_reference_key_idx" ON "carrier_documents"("organization_id", "reference_key");
CREATE UNIQUE INDEX "carrier_documents_organization_id_carrier_scac_reference_ty_key" ON "carrier_documents"("organization_id", "carrier_scac", "reference_type", "reference_key");

-- A document that only one organisation ever used (its shipments and its logged calls) becomes that
-- organisation's. A document several organisations used stays without one: it still answers the
-- history ids and shipments that point at it, and each organisation's next fetch starts its own.
UPDATE "carrier_documents" d SET "organization_id" = users."organization_id"
  FROM (SELECT "document_id", min("organization_id") AS "organization_id"
          FROM (SELECT s."document_id", s."organization_id" FROM "shipments" s WHERE s."document_id" IS NOT NULL
                UNION
                SELECT v."document_id", l."organization_id" FROM "tracking_lookups" l
                  JOIN "document_versions" v ON v."id" = l."document_version_id") u
         GROUP BY "document_id"
        HAVING count(DISTINCT "organization_id") = 1) users
 WHERE d."id" = users."document_id";
