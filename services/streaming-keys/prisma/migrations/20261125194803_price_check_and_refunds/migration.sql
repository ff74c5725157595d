-- AlterTable
ALTER TABLE "streaming_invoices" ADD COLUMN     "approved_by" TEXT,
ADD COLUMN     "attention_kind" TEXT,
ADD COLUMN     "refunded_at" TIMESTAMPTZ(3),
ADD COLUMN     "refunded_by" TEXT;
