-- The audit log (docs/audit-log.md): one row per row an admin's request created, changed or deleted in
-- this schema, written by the table's trigger in the change's own transaction, so a change is never
-- without its entry nor an entry without its change. Who did it comes from the connection's
-- `bo.actor` setting, which the platform sets while an admin's write request runs; writes of anyone
-- else (customers, webhooks, events, schedules) leave the setting empty and are not entries.
CREATE TABLE IF NOT EXISTS "admin_logs" (
  "id" BIGSERIAL PRIMARY KEY,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
  -- the admin as they were at the time (a later rename or removal leaves the entry as it was)
  "actor_id" TEXT,
  "actor_name" TEXT NOT NULL,
  "address" TEXT,
  -- the request that made the change, e.g. 'PUT /api/qpay/settings', and its correlation id
  "request" TEXT NOT NULL,
  "correlation_id" TEXT,
  -- 'import': one entry per table a database import changed (docs/database-export.md), its counts in "after"
  "action" TEXT NOT NULL CHECK ("action" IN ('create', 'update', 'delete', 'import')),
  -- the table changed and the row's id
  "entity" TEXT NOT NULL,
  "entity_id" TEXT,
  -- the row before and after, its secret columns masked
  "before" JSONB,
  "after" JSONB
);
CREATE INDEX IF NOT EXISTS "admin_logs_at_idx" ON "admin_logs"("at" DESC, "id" DESC);
CREATE INDEX IF NOT EXISTS "admin_logs_entity_at_idx" ON "admin_logs"("entity", "at" DESC);
CREATE INDEX IF NOT EXISTS "admin_logs_actor_at_idx" ON "admin_logs"("actor_name", "at" DESC);

-- Append-only: no statement of any role edits, deletes or empties an entry (only dropping the trigger,
-- a migration's DDL, could; see docs/audit-log.md).
CREATE OR REPLACE FUNCTION "admin_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit log is append-only: % on %.admin_logs refused', TG_OP, TG_TABLE_SCHEMA USING ERRCODE = 'insufficient_privilege';
END $$;
DROP TRIGGER IF EXISTS "admin_logs_append_only" ON "admin_logs";
CREATE TRIGGER "admin_logs_append_only" BEFORE UPDATE OR DELETE ON "admin_logs" FOR EACH ROW EXECUTE FUNCTION "admin_logs_append_only"();
DROP TRIGGER IF EXISTS "admin_logs_no_truncate" ON "admin_logs";
CREATE TRIGGER "admin_logs_no_truncate" BEFORE TRUNCATE ON "admin_logs" FOR EACH STATEMENT EXECUTE FUNCTION "admin_logs_append_only"();

-- The trigger a service's audited tables run after each row they change (its migrations attach it).
-- Its arguments name columns: a secret one is entered masked (and marked when it changed); one named
-- with a leading '-' is left out (bulky derived data, e.g. a text's embedding).
CREATE OR REPLACE FUNCTION "audit_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor JSONB := nullif(current_setting('bo.actor', true), '')::jsonb;
  old_row JSONB;
  new_row JSONB;
  col TEXT;
BEGIN
  IF actor IS NULL THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  FOR i IN 0 .. TG_NARGS - 1 LOOP
    col := TG_ARGV[i];
    IF left(col, 1) = '-' THEN
      old_row := old_row - substr(col, 2);
      new_row := new_row - substr(col, 2);
      CONTINUE;
    END IF;
    IF new_row ? col AND new_row->>col IS NOT NULL THEN
      new_row := jsonb_set(new_row, ARRAY[col], to_jsonb(CASE WHEN old_row IS NULL OR (old_row->>col) IS NOT DISTINCT FROM (new_row->>col) THEN '••••' ELSE '•••• (changed)' END));
    END IF;
    IF old_row ? col AND old_row->>col IS NOT NULL THEN old_row := jsonb_set(old_row, ARRAY[col], '"••••"'); END IF;
  END LOOP;
  -- An update that changed nothing shown (a value written again) is no entry.
  IF old_row = new_row THEN RETURN NULL; END IF;
  EXECUTE format('INSERT INTO %I.admin_logs (actor_id, actor_name, address, request, correlation_id, action, entity, entity_id, "before", "after") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', TG_TABLE_SCHEMA)
    USING actor->>'id', coalesce(actor->>'name', 'admin'), actor->>'address', coalesce(actor->>'request', ''), actor->>'correlationId',
      CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END,
      TG_TABLE_NAME, coalesce(new_row->>'id', old_row->>'id', new_row->>'key', old_row->>'key'), old_row, new_row;
  RETURN NULL;
END $$;
