-- AlterTable
ALTER TABLE "qpay_invoices" ADD COLUMN     "refund_method" TEXT,
ADD COLUMN     "refunded_at" TIMESTAMPTZ(3),
ADD COLUMN     "refunded_by" TEXT,
ADD COLUMN     "request_fingerprint" TEXT;

-- AlterTable
ALTER TABLE "qpay_settings" ADD COLUMN     "webhook_secret" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "webhook_secret_rotated_at" TIMESTAMPTZ(3);
