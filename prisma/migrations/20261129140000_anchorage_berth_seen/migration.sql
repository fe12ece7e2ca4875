-- A wait at anchor that ended with its vessel seen alongside (a berthing), as against one whose vessel
-- was lost from view (issue 36): a closed port's berthing resuming is read as its reopening, and a
-- receiver's outage, which ends every wait at once, must not read as one. False for every wait before
-- this column (none of them is read for a reopening: a closure's berthings are read from its report on).
ALTER TABLE "port_anchorage_waits" ADD COLUMN "berth_seen" BOOLEAN NOT NULL DEFAULT false;
