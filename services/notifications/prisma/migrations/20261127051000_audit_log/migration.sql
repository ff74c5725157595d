-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "app_settings_audit" ON "app_settings";
CREATE TRIGGER "app_settings_audit" AFTER INSERT OR UPDATE OR DELETE ON "app_settings" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "manychat_customers_audit" ON "manychat_customers";
CREATE TRIGGER "manychat_customers_audit" AFTER INSERT OR UPDATE OR DELETE ON "manychat_customers" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "manychat_purchases_audit" ON "manychat_purchases";
CREATE TRIGGER "manychat_purchases_audit" AFTER INSERT OR UPDATE OR DELETE ON "manychat_purchases" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "reminders_audit" ON "reminders";
CREATE TRIGGER "reminders_audit" AFTER INSERT OR UPDATE OR DELETE ON "reminders" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "chat_subscribers_audit" ON "chat_subscribers";
CREATE TRIGGER "chat_subscribers_audit" AFTER INSERT OR UPDATE OR DELETE ON "chat_subscribers" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "chat_pauses_audit" ON "chat_pauses";
CREATE TRIGGER "chat_pauses_audit" AFTER INSERT OR UPDATE OR DELETE ON "chat_pauses" FOR EACH ROW EXECUTE FUNCTION audit_row();
