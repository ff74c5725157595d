-- CreateTable
CREATE TABLE "pricing_data" (
    "id" SERIAL NOT NULL,
    "position" INTEGER NOT NULL,
    "product" TEXT NOT NULL,
    "price" TEXT NOT NULL,
    "regular_price" TEXT NOT NULL,
    "sale_price" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "row" JSONB NOT NULL,
    "last_updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pricing_data_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pricing_data_product_key" ON "pricing_data"("product");
