-- CreateTable
CREATE TABLE "migration_import_parts" (
    "run_id" UUID NOT NULL,
    "part" TEXT NOT NULL,
    "tables" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "migration_import_parts_pkey" PRIMARY KEY ("run_id","part")
);
