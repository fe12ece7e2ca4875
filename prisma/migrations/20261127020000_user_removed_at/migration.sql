-- Teammates an owner removed (docs/decisions/dashboard.md): the row stays, marked.
ALTER TABLE "users" ADD COLUMN "removed_at" TIMESTAMP(3);
