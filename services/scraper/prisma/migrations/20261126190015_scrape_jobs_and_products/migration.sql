-- CreateTable
CREATE TABLE "scrape_jobs" (
    "id" SERIAL NOT NULL,
    "marketplace_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "current_page" INTEGER NOT NULL DEFAULT 0,
    "total_pages" INTEGER NOT NULL,
    "start_page" INTEGER NOT NULL,
    "end_page" INTEGER NOT NULL,
    "total_products" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "started_by" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scrape_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scrape_progress" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "page_number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "run_id" TEXT NOT NULL,
    "products_found" INTEGER NOT NULL DEFAULT 0,
    "products_inserted" INTEGER NOT NULL DEFAULT 0,
    "nothing_matched" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scrape_progress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scrape_job_events" (
    "id" BIGSERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scrape_job_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scraped_products" (
    "id" SERIAL NOT NULL,
    "marketplace_id" INTEGER NOT NULL,
    "offer_key" TEXT NOT NULL,
    "game_name" TEXT NOT NULL,
    "product_name" TEXT NOT NULL,
    "variation_value" TEXT,
    "attribute_name" TEXT,
    "price_usd" DECIMAL(14,2) NOT NULL,
    "previous_price_usd" DECIMAL(14,2),
    "price_changed" BOOLEAN NOT NULL DEFAULT false,
    "source_url" TEXT,
    "seller_name" TEXT,
    "seller_level" INTEGER,
    "seller_location" TEXT,
    "order_success_rate" DECIMAL(5,2),
    "total_sales" INTEGER,
    "rating_description" DECIMAL(4,2),
    "rating_service" DECIMAL(4,2),
    "rating_speed" DECIMAL(4,2),
    "raw_text" TEXT NOT NULL,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "woocommerce_variation_id" INTEGER,
    "woocommerce_parent_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scraped_products_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scrape_jobs_marketplace_id_idx" ON "scrape_jobs"("marketplace_id");

-- CreateIndex
CREATE INDEX "scrape_jobs_created_at_idx" ON "scrape_jobs"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "scrape_progress_job_id_page_number_key" ON "scrape_progress"("job_id", "page_number");

-- CreateIndex
CREATE INDEX "scrape_job_events_job_id_id_idx" ON "scrape_job_events"("job_id", "id");

-- CreateIndex
CREATE INDEX "scraped_products_game_name_idx" ON "scraped_products"("game_name");

-- CreateIndex
CREATE UNIQUE INDEX "scraped_products_marketplace_id_offer_key_key" ON "scraped_products"("marketplace_id", "offer_key");

-- AddForeignKey
ALTER TABLE "scrape_jobs" ADD CONSTRAINT "scrape_jobs_marketplace_id_fkey" FOREIGN KEY ("marketplace_id") REFERENCES "marketplaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scrape_progress" ADD CONSTRAINT "scrape_progress_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "scrape_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scrape_job_events" ADD CONSTRAINT "scrape_job_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "scrape_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scraped_products" ADD CONSTRAINT "scraped_products_marketplace_id_fkey" FOREIGN KEY ("marketplace_id") REFERENCES "marketplaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
