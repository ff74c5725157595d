-- CreateTable
CREATE TABLE "streaming_accounts" (
    "id" SERIAL NOT NULL,
    "email" VARCHAR(120) NOT NULL,
    "service" VARCHAR(3) NOT NULL,
    "password" TEXT,
    "password_updated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "streaming_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "streaming_keys" (
    "id" SERIAL NOT NULL,
    "email" VARCHAR(120) NOT NULL,
    "key" VARCHAR(30) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "profile_number" INTEGER NOT NULL,
    "is_active" INTEGER NOT NULL DEFAULT 1,
    "service" VARCHAR(3) NOT NULL,
    "customer_id" VARCHAR(64),
    "last_notification_sent" TIMESTAMPTZ(3),
    "notification_status" TEXT,
    "notification_attempts" INTEGER NOT NULL DEFAULT 0,
    "is_opted_out" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "version" INTEGER NOT NULL DEFAULT 1,
    "assigned_at" TIMESTAMPTZ(3),
    "buyer_email" VARCHAR(120),
    "streaming_invoice_id" INTEGER,

    CONSTRAINT "streaming_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "streaming_pricing" (
    "id" SERIAL NOT NULL,
    "service" VARCHAR(3) NOT NULL,
    "service_name" TEXT NOT NULL,
    "duration" INTEGER NOT NULL,
    "price" INTEGER NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "streaming_pricing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "streaming_qr_codes" (
    "id" SERIAL NOT NULL,
    "key_id" INTEGER NOT NULL,
    "qr_code_data" TEXT NOT NULL,
    "qr_code_url" TEXT,
    "generated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "streaming_qr_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "streaming_invoices" (
    "id" SERIAL NOT NULL,
    "invoice_id" TEXT,
    "email" VARCHAR(120),
    "service_code" VARCHAR(3) NOT NULL,
    "duration" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "paid_at" TIMESTAMPTZ(3),
    "verification_code" VARCHAR(10),
    "key_generated" BOOLEAN NOT NULL DEFAULT false,
    "customer_name" TEXT,
    "phone_number" TEXT,
    "platform" TEXT NOT NULL DEFAULT 'admin',
    "subscriber_id" VARCHAR(64),
    "qpay_qr_data" TEXT,
    "qr_image_url" TEXT,
    "product_name" TEXT,
    "key_id" INTEGER,
    "attention_reason" TEXT,
    "payment_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "streaming_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "renewal_sessions" (
    "id" TEXT NOT NULL,
    "user_id" VARCHAR(64),
    "key_id" INTEGER NOT NULL,
    "selected_duration" INTEGER NOT NULL,
    "invoice_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),

    CONSTRAINT "renewal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "streaming_accounts_email_service_key" ON "streaming_accounts"("email", "service");

-- CreateIndex
CREATE UNIQUE INDEX "streaming_keys_key_key" ON "streaming_keys"("key");

-- CreateIndex
CREATE INDEX "streaming_keys_service_is_active_idx" ON "streaming_keys"("service", "is_active");

-- CreateIndex
CREATE INDEX "streaming_keys_expires_at_idx" ON "streaming_keys"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "streaming_keys_email_service_profile_number_key" ON "streaming_keys"("email", "service", "profile_number");

-- CreateIndex
CREATE UNIQUE INDEX "streaming_pricing_service_duration_key" ON "streaming_pricing"("service", "duration");

-- CreateIndex
CREATE INDEX "streaming_qr_codes_key_id_idx" ON "streaming_qr_codes"("key_id");

-- CreateIndex
CREATE UNIQUE INDEX "streaming_invoices_invoice_id_key" ON "streaming_invoices"("invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "streaming_invoices_key_id_key" ON "streaming_invoices"("key_id");

-- CreateIndex
CREATE INDEX "streaming_invoices_status_idx" ON "streaming_invoices"("status");

-- CreateIndex
CREATE UNIQUE INDEX "renewal_sessions_invoice_id_key" ON "renewal_sessions"("invoice_id");

-- CreateIndex
CREATE INDEX "renewal_sessions_key_id_idx" ON "renewal_sessions"("key_id");

-- AddForeignKey
ALTER TABLE "streaming_qr_codes" ADD CONSTRAINT "streaming_qr_codes_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "streaming_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "streaming_invoices" ADD CONSTRAINT "streaming_invoices_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "streaming_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "renewal_sessions" ADD CONSTRAINT "renewal_sessions_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "streaming_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
