-- Alerts (docs/alerts.md): one row an episode of a rule's condition (pending → firing → resolved),
-- and the outside systems whose circuit breaker each process reports as not closed.
CREATE TABLE IF NOT EXISTS "alerts" (
  "id" UUID PRIMARY KEY,
  "rule" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "title" TEXT NOT NULL,
  "severity" TEXT NOT NULL CHECK ("severity" IN ('warning', 'critical')),
  "status" TEXT NOT NULL CHECK ("status" IN ('pending', 'firing', 'resolved')),
  "message" TEXT NOT NULL,
  "details" JSONB NOT NULL DEFAULT '{}',
  "pending_since" TIMESTAMPTZ(3) NOT NULL,
  "fired_at" TIMESTAMPTZ(3),
  "resolved_at" TIMESTAMPTZ(3),
  "last_seen_at" TIMESTAMPTZ(3) NOT NULL
);
-- One open episode per rule and key, however many replicas evaluate at once.
CREATE UNIQUE INDEX IF NOT EXISTS "alerts_rule_key_open_key" ON "alerts"("rule", "key") WHERE "status" IN ('pending', 'firing');
CREATE INDEX IF NOT EXISTS "alerts_status_pending_since_idx" ON "alerts"("status", "pending_since");
CREATE TABLE IF NOT EXISTS "breaker_reports" (
  -- the reporting process (Runs' owner)
  "owner" TEXT NOT NULL,
  "system" TEXT NOT NULL,
  -- since when its breaker has not been closed
  "open_since" TIMESTAMPTZ(3) NOT NULL,
  "reported_at" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("owner", "system")
);
