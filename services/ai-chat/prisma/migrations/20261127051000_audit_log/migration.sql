-- Every row an admin's request changes in these tables is an audit entry (docs/audit-log.md): the
-- platform's audit_row() writes it into admin_logs in the change's transaction. Its arguments name
-- the columns entered masked, and with a leading '-' the ones left out.

DROP TRIGGER IF EXISTS "ai_providers_audit" ON "ai_providers";
CREATE TRIGGER "ai_providers_audit" AFTER INSERT OR UPDATE OR DELETE ON "ai_providers" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "system_prompts_audit" ON "system_prompts";
CREATE TRIGGER "system_prompts_audit" AFTER INSERT OR UPDATE OR DELETE ON "system_prompts" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "automation_pauses_audit" ON "automation_pauses";
CREATE TRIGGER "automation_pauses_audit" AFTER INSERT OR UPDATE OR DELETE ON "automation_pauses" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "manychat_flows_audit" ON "manychat_flows";
CREATE TRIGGER "manychat_flows_audit" AFTER INSERT OR UPDATE OR DELETE ON "manychat_flows" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "product_flow_mappings_audit" ON "product_flow_mappings";
CREATE TRIGGER "product_flow_mappings_audit" AFTER INSERT OR UPDATE OR DELETE ON "product_flow_mappings" FOR EACH ROW EXECUTE FUNCTION audit_row();
DROP TRIGGER IF EXISTS "knowledge_base_audit" ON "knowledge_base";
CREATE TRIGGER "knowledge_base_audit" AFTER INSERT OR UPDATE OR DELETE ON "knowledge_base" FOR EACH ROW EXECUTE FUNCTION audit_row('-embedding');
DROP TRIGGER IF EXISTS "purchase_intents_audit" ON "purchase_intents";
CREATE TRIGGER "purchase_intents_audit" AFTER INSERT OR UPDATE OR DELETE ON "purchase_intents" FOR EACH ROW EXECUTE FUNCTION audit_row();
