-- A reading raised by a reported closure or strike names the disruptions that raised it (issue 36):
-- [{id, headline, category, severity}] as they were when the reading was computed; empty for readings
-- the queue alone set, and for every reading before this column.
ALTER TABLE "port_congestion_readings" ADD COLUMN "raised_by" JSONB NOT NULL DEFAULT '[]';
