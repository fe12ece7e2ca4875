-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "operator" BOOLEAN NOT NULL DEFAULT false;
