-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "marketplaces_audit" ON "marketplaces";
CREATE TRIGGER "marketplaces_audit" AFTER INSERT OR UPDATE OR DELETE ON "marketplaces" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "exchange_rates_audit" ON "exchange_rates";
CREATE TRIGGER "exchange_rates_audit" AFTER INSERT OR UPDATE OR DELETE ON "exchange_rates" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "commission_tiers_audit" ON "commission_tiers";
CREATE TRIGGER "commission_tiers_audit" AFTER INSERT OR UPDATE OR DELETE ON "commission_tiers" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "scrape_jobs_audit" ON "scrape_jobs";
CREATE TRIGGER "scrape_jobs_audit" AFTER INSERT OR UPDATE OR DELETE ON "scrape_jobs" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "scraped_products_audit" ON "scraped_products";
CREATE TRIGGER "scraped_products_audit" AFTER INSERT OR UPDATE OR DELETE ON "scraped_products" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "product_mappings_audit" ON "product_mappings";
CREATE TRIGGER "product_mappings_audit" AFTER INSERT OR UPDATE OR DELETE ON "product_mappings" FOR EACH ROW EXECUTE FUNCTION audit_row();
