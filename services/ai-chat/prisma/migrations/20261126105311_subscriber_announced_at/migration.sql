-- AlterTable
ALTER TABLE "user_chat_history" ADD COLUMN     "announced_at" TIMESTAMPTZ(3);
