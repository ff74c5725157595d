-- The sync of all products is a platform run now (kind woocommerce-sync, platform/migrations'
-- runs tables, applied before this): its history moves there, its failures in the run's plan step.
CREATE TEMP TABLE moved_sync_runs ON COMMIT DROP AS
  SELECT gen_random_uuid() AS run_id, s.* FROM "sync_runs" s;

INSERT INTO "runs" ("id", "kind", "status", "input", "started_by", "current", "total", "counters", "last_error", "attempts", "version", "created_at", "started_at", "completed_at")
SELECT run_id, 'woocommerce-sync',
       CASE status WHEN 'finished' THEN 'completed' ELSE 'failed' END,
       '{}', 'admin',
       processed, total,
       jsonb_build_object('total', total, 'processed', processed, 'synced', synced, 'failed', failed, 'skipped', skipped, 'batchCalls', batch_calls),
       CASE WHEN status = 'running' THEN 'Stopped by the upgrade to platform runs before it finished' ELSE error END,
       1, 1, started_at, started_at, coalesce(finished_at, heartbeat_at)
FROM moved_sync_runs;

INSERT INTO "run_steps" ("run_id", "name", "result", "completed_at")
SELECT run_id, 'plan',
       jsonb_build_object('sheetReadAt', started_at, 'total', total, 'skipped', skipped, 'invalid', failures, 'batches', '[]'::jsonb),
       coalesce(finished_at, heartbeat_at)
FROM moved_sync_runs;

DROP TABLE "sync_runs";
