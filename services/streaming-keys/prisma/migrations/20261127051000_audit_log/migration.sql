-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "streaming_accounts_audit" ON "streaming_accounts";
CREATE TRIGGER "streaming_accounts_audit" AFTER INSERT OR UPDATE OR DELETE ON "streaming_accounts" FOR EACH ROW EXECUTE FUNCTION audit_row('password', 'mailbox_password');
DROP TRIGGER IF EXISTS "streaming_keys_audit" ON "streaming_keys";
CREATE TRIGGER "streaming_keys_audit" AFTER INSERT OR UPDATE OR DELETE ON "streaming_keys" FOR EACH ROW EXECUTE FUNCTION audit_row('key');
DROP TRIGGER IF EXISTS "streaming_pricing_audit" ON "streaming_pricing";
CREATE TRIGGER "streaming_pricing_audit" AFTER INSERT OR UPDATE OR DELETE ON "streaming_pricing" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "streaming_qr_codes_audit" ON "streaming_qr_codes";
CREATE TRIGGER "streaming_qr_codes_audit" AFTER INSERT OR UPDATE OR DELETE ON "streaming_qr_codes" FOR EACH ROW EXECUTE FUNCTION audit_row('-qr_code_data');
DROP TRIGGER IF EXISTS "streaming_invoices_audit" ON "streaming_invoices";
CREATE TRIGGER "streaming_invoices_audit" AFTER INSERT OR UPDATE OR DELETE ON "streaming_invoices" FOR EACH ROW EXECUTE FUNCTION audit_row('verification_code', '-qpay_qr_data');
DROP TRIGGER IF EXISTS "renewal_sessions_audit" ON "renewal_sessions";
CREATE TRIGGER "renewal_sessions_audit" AFTER INSERT OR UPDATE OR DELETE ON "renewal_sessions" FOR EACH ROW EXECUTE FUNCTION audit_row();
