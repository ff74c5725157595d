-- AlterTable
ALTER TABLE "streaming_keys" ADD COLUMN     "notification_error" TEXT;
