-- Issue 38: the start of the receiver's answer, shown with the attempt (at most 1 KiB of text).
ALTER TABLE "webhook_attempts" ADD COLUMN "response_excerpt" TEXT;
