-- CreateTable
CREATE TABLE "woocommerce_product_mapping" (
    "id" SERIAL NOT NULL,
    "product_name" TEXT NOT NULL,
    "product_key" TEXT NOT NULL,
    "woocommerce_id" INTEGER NOT NULL,
    "parent_id" INTEGER,
    "permalink" TEXT,
    "last_synced" TIMESTAMPTZ(3),
    "last_synced_price" TEXT,
    "last_synced_regular_price" TEXT,
    "last_synced_sale_price" TEXT,
    "last_synced_revision" INTEGER,
    "mapped_by" TEXT NOT NULL DEFAULT 'manual',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "woocommerce_product_mapping_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_pushes" (
    "event_id" UUID NOT NULL,
    "product_name" TEXT NOT NULL,
    "product_key" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "regular_price" TEXT NOT NULL,
    "sale_price" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "price_pushes_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" SERIAL NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "total" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "synced" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "batch_calls" INTEGER NOT NULL DEFAULT 0,
    "failures" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "woocommerce_product_mapping_product_key_key" ON "woocommerce_product_mapping"("product_key");

-- CreateIndex
CREATE INDEX "price_pushes_product_key_revision_idx" ON "price_pushes"("product_key", "revision");

-- CreateIndex
CREATE INDEX "price_pushes_created_at_idx" ON "price_pushes"("created_at");
