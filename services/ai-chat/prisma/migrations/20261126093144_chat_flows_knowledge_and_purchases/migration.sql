-- CreateTable
CREATE TABLE "manychat_flows" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "manychat_flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_flow_mappings" (
    "id" SERIAL NOT NULL,
    "match_type" TEXT NOT NULL,
    "match_value" TEXT NOT NULL,
    "flow_namespace" TEXT NOT NULL,
    "flow_name" TEXT,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_flow_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledge_base" (
    "id" SERIAL NOT NULL,
    "category" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "embedding" BYTEA,
    "embedding_model" TEXT,
    "embedded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "knowledge_base_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_intents" (
    "id" SERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "product" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'collecting_details',
    "invoice_id" TEXT,
    "amount" INTEGER,
    "payment_url" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchase_intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_sessions" (
    "user_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'IDLE',
    "context" JSONB NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "user_chat_history" (
    "user_id" TEXT NOT NULL,
    "first_name" TEXT,
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "first_message_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_message_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_chat_history_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "manychat_flows_name_key" ON "manychat_flows"("name");

-- CreateIndex
CREATE INDEX "product_flow_mappings_enabled_priority_idx" ON "product_flow_mappings"("enabled", "priority");

-- CreateIndex
CREATE INDEX "knowledge_base_category_idx" ON "knowledge_base"("category");

-- CreateIndex
CREATE UNIQUE INDEX "purchase_intents_invoice_id_key" ON "purchase_intents"("invoice_id");

-- CreateIndex
CREATE INDEX "purchase_intents_user_id_created_at_idx" ON "purchase_intents"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "purchase_intents_status_expires_at_idx" ON "purchase_intents"("status", "expires_at");

-- CreateIndex
CREATE INDEX "user_chat_history_last_message_at_idx" ON "user_chat_history"("last_message_at");
