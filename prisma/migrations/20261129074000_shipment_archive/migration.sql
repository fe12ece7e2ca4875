-- AlterTable
ALTER TABLE "shipments" ADD COLUMN "archived_at" TIMESTAMP(3);
