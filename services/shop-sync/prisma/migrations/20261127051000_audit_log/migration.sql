-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "woocommerce_product_mapping_audit" ON "woocommerce_product_mapping";
CREATE TRIGGER "woocommerce_product_mapping_audit" AFTER INSERT OR UPDATE OR DELETE ON "woocommerce_product_mapping" FOR EACH ROW EXECUTE FUNCTION audit_row();
