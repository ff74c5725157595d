-- CreateTable
CREATE TABLE "product_mappings" (
    "id" SERIAL NOT NULL,
    "scraped_product_id" INTEGER NOT NULL,
    "woocommerce_product_id" INTEGER NOT NULL,
    "woocommerce_variation_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'publish',
    "auto_sync_enabled" BOOLEAN NOT NULL DEFAULT false,
    "published_price_mnt" INTEGER NOT NULL,
    "permalink" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "product_mappings_scraped_product_id_key" ON "product_mappings"("scraped_product_id");

-- AddForeignKey
ALTER TABLE "product_mappings" ADD CONSTRAINT "product_mappings_scraped_product_id_fkey" FOREIGN KEY ("scraped_product_id") REFERENCES "scraped_products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A published variation is public (publish) or private (draft) in the shop, nothing else.
ALTER TABLE "product_mappings" ADD CONSTRAINT "product_mappings_status_check" CHECK ("status" IN ('publish', 'draft'));
