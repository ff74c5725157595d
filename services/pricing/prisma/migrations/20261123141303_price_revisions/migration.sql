-- CreateTable
CREATE TABLE "price_revisions" (
    "product" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,

    CONSTRAINT "price_revisions_pkey" PRIMARY KEY ("product")
);
