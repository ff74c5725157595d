-- CreateTable
CREATE TABLE "qpay_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "qpay_client_id" TEXT NOT NULL DEFAULT '',
    "qpay_client_secret" TEXT NOT NULL DEFAULT '',
    "qpay_invoice_code" TEXT NOT NULL DEFAULT '',
    "qpay_callback_url" TEXT NOT NULL DEFAULT '',
    "qpay_environment" TEXT NOT NULL DEFAULT 'sandbox',
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3),

    CONSTRAINT "qpay_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qpay_invoices" (
    "id" SERIAL NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "reference" TEXT,
    "invoice_code" TEXT NOT NULL,
    "sender_invoice_no" TEXT NOT NULL,
    "customer_email" TEXT,
    "customer_name" TEXT,
    "customer_phone" TEXT,
    "user_id" TEXT,
    "description" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "duration" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "flag" TEXT,
    "environment" TEXT NOT NULL,
    "qpay_invoice_id" TEXT,
    "qr_text" TEXT,
    "qr_image" TEXT,
    "urls" JSONB NOT NULL DEFAULT '[]',
    "callback_url" TEXT,
    "callback_token" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "note" TEXT,
    "payment_payload" JSONB,
    "payment_id" TEXT,
    "approved_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "last_checked_at" TIMESTAMPTZ(3),

    CONSTRAINT "qpay_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qpay_webhook_logs" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "reference" TEXT,
    "status" TEXT NOT NULL,
    "request_data" JSONB,
    "response_data" JSONB,
    "response_time" INTEGER,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qpay_webhook_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_payments" (
    "id" SERIAL NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "customer_name" TEXT,
    "product_name" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "description" TEXT,
    "admin_custom_field" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "paid_at" TIMESTAMPTZ(3),
    "subscriber_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "custom_payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "qpay_invoices_invoice_id_key" ON "qpay_invoices"("invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "qpay_invoices_reference_key" ON "qpay_invoices"("reference");

-- CreateIndex
CREATE UNIQUE INDEX "qpay_invoices_sender_invoice_no_key" ON "qpay_invoices"("sender_invoice_no");

-- CreateIndex
CREATE UNIQUE INDEX "qpay_invoices_qpay_invoice_id_key" ON "qpay_invoices"("qpay_invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "qpay_invoices_payment_id_key" ON "qpay_invoices"("payment_id");

-- CreateIndex
CREATE INDEX "qpay_invoices_status_created_at_idx" ON "qpay_invoices"("status", "created_at");

-- CreateIndex
CREATE INDEX "qpay_invoices_user_id_created_at_idx" ON "qpay_invoices"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "qpay_webhook_logs_created_at_idx" ON "qpay_webhook_logs"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "custom_payments_invoice_id_key" ON "custom_payments"("invoice_id");

-- AddForeignKey
ALTER TABLE "custom_payments" ADD CONSTRAINT "custom_payments_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "qpay_invoices"("invoice_id") ON DELETE RESTRICT ON UPDATE CASCADE;
