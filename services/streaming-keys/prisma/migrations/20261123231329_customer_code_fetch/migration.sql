-- AlterTable
ALTER TABLE "streaming_accounts" ADD COLUMN     "mailbox_password" TEXT,
ADD COLUMN     "mailbox_password_updated_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "code_fetches" (
    "id" SERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "customer_email" VARCHAR(320) NOT NULL,
    "key_id" INTEGER,
    "parse_type" VARCHAR(40) NOT NULL,
    "outcome" VARCHAR(40) NOT NULL,
    "found" BOOLEAN NOT NULL DEFAULT false,
    "source" VARCHAR(20),

    CONSTRAINT "code_fetches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "code_fetches_created_at_idx" ON "code_fetches"("created_at");

-- CreateIndex
CREATE INDEX "code_fetches_key_id_idx" ON "code_fetches"("key_id");
