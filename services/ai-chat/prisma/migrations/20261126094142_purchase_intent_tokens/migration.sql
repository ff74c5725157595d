-- AlterTable
ALTER TABLE "purchase_intents" ADD COLUMN     "token" TEXT NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "purchase_intents_token_key" ON "purchase_intents"("token");
