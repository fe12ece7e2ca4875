-- Public share links are looked up by the SHA-256 of their token, not by the token itself, so a copy
-- of the database (a backup, a replica, a dump) holds no link that opens a shipment's page; the token
-- column is sealed by the start-up pass (src/app/seal-secrets.ts), which a SQL migration cannot do
-- (the key is configuration, not data). Existing links keep working: their hash is computed here.
ALTER TABLE "share_links" ADD COLUMN "token_hash" TEXT;
UPDATE "share_links" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
ALTER TABLE "share_links" ALTER COLUMN "token_hash" SET NOT NULL;
DROP INDEX "share_links_token_key";
CREATE UNIQUE INDEX "share_links_token_hash_key" ON "share_links"("token_hash");
