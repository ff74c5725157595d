-- CreateTable
CREATE TABLE "app_settings" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "description" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "manychat_customers" (
    "id" SERIAL NOT NULL,
    "facebook_user_id" TEXT NOT NULL,
    "email" TEXT,
    "name" TEXT,
    "phone" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "manychat_customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "manychat_purchases" (
    "id" SERIAL NOT NULL,
    "customer_id" INTEGER,
    "service" TEXT,
    "duration" INTEGER,
    "amount" INTEGER NOT NULL,
    "key_id" INTEGER,
    "invoice_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMPTZ(3),
    "renewal_notification_sent" BOOLEAN NOT NULL DEFAULT false,
    "paid_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "manychat_purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "event_id" UUID,
    "reminder_id" INTEGER,
    "key_id" INTEGER,
    "invoice_id" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "message_tag" TEXT,
    "sent_text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminders" (
    "id" SERIAL NOT NULL,
    "key_id" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reminders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminder_key_counters" (
    "key_id" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "reminder_key_counters_pkey" PRIMARY KEY ("key_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "app_settings_key_key" ON "app_settings"("key");

-- CreateIndex
CREATE UNIQUE INDEX "manychat_customers_facebook_user_id_key" ON "manychat_customers"("facebook_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "manychat_purchases_invoice_id_key" ON "manychat_purchases"("invoice_id");

-- CreateIndex
CREATE INDEX "manychat_purchases_key_id_idx" ON "manychat_purchases"("key_id");

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_reminder_id_key" ON "deliveries"("reminder_id");

-- CreateIndex
CREATE INDEX "deliveries_created_at_idx" ON "deliveries"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_event_id_kind_key" ON "deliveries"("event_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "reminders_key_id_expires_at_key" ON "reminders"("key_id", "expires_at");

-- AddForeignKey
ALTER TABLE "manychat_purchases" ADD CONSTRAINT "manychat_purchases_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "manychat_customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;
