-- CreateTable
CREATE TABLE "chat_subscribers" (
    "subscriber_id" TEXT NOT NULL,
    "last_interaction_at" TIMESTAMPTZ(3) NOT NULL,
    "revision" INTEGER NOT NULL,

    CONSTRAINT "chat_subscribers_pkey" PRIMARY KEY ("subscriber_id")
);
