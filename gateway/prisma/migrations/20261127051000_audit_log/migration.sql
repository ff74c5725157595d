-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "users_audit" ON "users";
CREATE TRIGGER "users_audit" AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "local_admins_audit" ON "local_admins";
CREATE TRIGGER "local_admins_audit" AFTER INSERT OR UPDATE OR DELETE ON "local_admins" FOR EACH ROW EXECUTE FUNCTION audit_row('password_hash');
