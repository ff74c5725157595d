-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "pricing_data_audit" ON "pricing_data";
CREATE TRIGGER "pricing_data_audit" AFTER INSERT OR UPDATE OR DELETE ON "pricing_data" FOR EACH ROW EXECUTE FUNCTION audit_row();
