-- A custom plan's negotiated per-key minute window (docs/decisions/plans-and-limits.md): null keeps the plan's own.
ALTER TABLE "organizations" ADD COLUMN "rate_per_minute" INTEGER;
