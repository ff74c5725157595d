-- CreateTable
CREATE TABLE "chat_pauses" (
    "subscriber_id" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL,
    "paused_until" TIMESTAMPTZ(3),
    "revision" BIGINT NOT NULL,

    CONSTRAINT "chat_pauses_pkey" PRIMARY KEY ("subscriber_id")
);
