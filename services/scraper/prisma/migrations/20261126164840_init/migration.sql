-- CreateTable
CREATE TABLE "marketplaces" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "country_code" TEXT NOT NULL DEFAULT 'us',
    "scrape_config" JSONB,
    "pagination_enabled" BOOLEAN NOT NULL DEFAULT false,
    "pagination_param" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "marketplaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_rates" (
    "id" SERIAL NOT NULL,
    "from_currency" TEXT NOT NULL DEFAULT 'USD',
    "to_currency" TEXT NOT NULL DEFAULT 'MNT',
    "rate" DECIMAL(14,4) NOT NULL,
    "commission_rate" DECIMAL(8,2) NOT NULL DEFAULT 0,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "updated_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_rates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commission_tiers" (
    "id" SERIAL NOT NULL,
    "min_price" DECIMAL(14,2) NOT NULL,
    "max_price" DECIMAL(14,2),
    "commission_rate" DECIMAL(8,2) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commission_tiers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "marketplaces_name_key" ON "marketplaces"("name");

-- One active exchange rate: every save is a new row, and the one before it stops being active.
CREATE UNIQUE INDEX "exchange_rates_one_active" ON "exchange_rates" ("is_active") WHERE "is_active";

-- A USD price has one tier or none: bands [min, max) never overlap (a null max is no upper limit).
ALTER TABLE "commission_tiers" ADD CONSTRAINT "commission_tiers_no_overlap" EXCLUDE USING gist (numrange("min_price", "max_price", '[)') WITH &&);
