-- The messaging tables of every domain service's schema (platform/src/events): the outbox, the
-- inbox, the applied revisions and the outside effects. Until 2026-11-26 each service's own init
-- migration created them; schemas migrated then already have them, hence IF NOT EXISTS. The three
-- ADD COLUMN IF NOT EXISTS bring a schema that stopped at the first messaging shape (before
-- 2026-11-23's outcome, pending_since and failed_at) to this one.

-- CreateTable
CREATE TABLE IF NOT EXISTS "outbox_events" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "correlation_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "pending_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failed_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE IF NOT EXISTS "inbox_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'applied',
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateTable
CREATE TABLE IF NOT EXISTS "applied_revisions" (
    "consumer" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "entity_key" TEXT NOT NULL,
    "revision" BIGINT NOT NULL,
    "event_id" UUID NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_revisions_pkey" PRIMARY KEY ("consumer","entity","entity_key")
);

-- CreateTable
CREATE TABLE IF NOT EXISTS "outside_effects" (
    "idempotency_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "outside_effects_pkey" PRIMARY KEY ("idempotency_key")
);

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN IF NOT EXISTS "pending_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN IF NOT EXISTS "failed_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "inbox_events" ADD COLUMN IF NOT EXISTS "outcome" TEXT NOT NULL DEFAULT 'applied';

-- CreateIndex
CREATE INDEX IF NOT EXISTS "outbox_events_status_next_attempt_at_idx" ON "outbox_events"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "outbox_events_sent_at_idx" ON "outbox_events"("sent_at");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "inbox_events_processed_at_idx" ON "inbox_events"("processed_at");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "outside_effects_status_next_attempt_at_idx" ON "outside_effects"("status", "next_attempt_at");
