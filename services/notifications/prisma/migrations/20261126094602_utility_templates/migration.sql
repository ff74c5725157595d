-- AlterTable
ALTER TABLE "deliveries" DROP COLUMN "message_tag",
ADD COLUMN     "template_name" TEXT;

-- CreateIndex
CREATE INDEX "deliveries_subscriber_id_status_idx" ON "deliveries"("subscriber_id", "status");
