-- Durable background runs (one row a run, its finished steps, a lease while a worker holds it) and
-- the schedules that start them, in every domain service's schema.
CREATE TABLE IF NOT EXISTS "runs" (
  "id" UUID PRIMARY KEY,
  "kind" TEXT NOT NULL,
  -- pending | in_progress | completed | failed | cancelled
  "status" TEXT NOT NULL DEFAULT 'pending',
  "input" JSONB NOT NULL DEFAULT '{}',
  "started_by" TEXT NOT NULL,
  "schedule" TEXT,
  -- at most one pending or in-progress run per non-null key (e.g. one shop sync at a time)
  "exclusive_key" TEXT,
  "current" INTEGER NOT NULL DEFAULT 0,
  "total" INTEGER,
  "counters" JSONB NOT NULL DEFAULT '{}',
  "result" JSONB,
  "last_error" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "version" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "started_at" TIMESTAMPTZ(3),
  "completed_at" TIMESTAMPTZ(3),
  "cancel_requested_at" TIMESTAMPTZ(3),
  "lease_owner" TEXT,
  "lease_expires_at" TIMESTAMPTZ(3)
);
CREATE INDEX IF NOT EXISTS "runs_status_lease_expires_at_idx" ON "runs"("status", "lease_expires_at");
CREATE INDEX IF NOT EXISTS "runs_created_at_idx" ON "runs"("created_at");
CREATE INDEX IF NOT EXISTS "runs_kind_created_at_idx" ON "runs"("kind", "created_at");
CREATE UNIQUE INDEX IF NOT EXISTS "runs_exclusive_key_active_key" ON "runs"("exclusive_key") WHERE "status" IN ('pending', 'in_progress');
CREATE TABLE IF NOT EXISTS "run_steps" (
  "run_id" UUID NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "result" JSONB,
  "completed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("run_id", "name")
);
CREATE TABLE IF NOT EXISTS "schedules" (
  "name" TEXT PRIMARY KEY,
  "expression" TEXT NOT NULL,
  "run_kind" TEXT NOT NULL,
  "last_tick_at" TIMESTAMPTZ(3),
  "last_run_id" UUID,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
