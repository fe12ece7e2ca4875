-- Summary facts computed when a document version is stored, kept beside the version and on the
-- shipments that serve it (issue 18: lists read small rows, never documents).
ALTER TABLE "document_versions" ADD COLUMN "summary" JSONB;
ALTER TABLE "shipments" ADD COLUMN "summary" JSONB;
