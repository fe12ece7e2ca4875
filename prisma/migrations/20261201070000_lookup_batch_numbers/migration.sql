-- A row inserted already numbered keeps its number: the lookup log numbers a whole batch in its own
-- statement, one counter update per organisation per batch, instead of this function's upsert of the
-- counter row once per row (a PL/pgSQL call and a new version of the counter row each time: two
-- thousand a second for a service answering compat from the store). Rows inserted without a number
-- (0, the column's default) and rows moved to another organisation are numbered here as before.
CREATE OR REPLACE FUNCTION "organization_number"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW."number" > 0 THEN
    RETURN NEW;
  END IF;
  INSERT INTO "organization_counters" AS c ("organization_id", "counter", "value")
  VALUES (NEW."organization_id", TG_ARGV[0], 1)
  ON CONFLICT ("organization_id", "counter") DO UPDATE SET "value" = c."value" + 1
  RETURNING c."value" INTO NEW."number";
  RETURN NEW;
END
$$;
