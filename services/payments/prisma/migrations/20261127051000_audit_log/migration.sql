-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "qpay_settings_audit" ON "qpay_settings";
CREATE TRIGGER "qpay_settings_audit" AFTER INSERT OR UPDATE OR DELETE ON "qpay_settings" FOR EACH ROW EXECUTE FUNCTION audit_row('qpay_client_secret', 'webhook_secret');
DROP TRIGGER IF EXISTS "qpay_invoices_audit" ON "qpay_invoices";
CREATE TRIGGER "qpay_invoices_audit" AFTER INSERT OR UPDATE OR DELETE ON "qpay_invoices" FOR EACH ROW EXECUTE FUNCTION audit_row('callback_token', '-qr_image', '-qr_text');
DROP TRIGGER IF EXISTS "custom_payments_audit" ON "custom_payments";
CREATE TRIGGER "custom_payments_audit" AFTER INSERT OR UPDATE OR DELETE ON "custom_payments" FOR EACH ROW EXECUTE FUNCTION audit_row();
