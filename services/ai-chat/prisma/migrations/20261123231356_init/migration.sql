-- CreateTable
CREATE TABLE "ai_providers" (
    "id" SERIAL NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "api_key_env_var" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "system_prompts" (
    "id" SERIAL NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "system_prompts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ai_providers_priority_id_idx" ON "ai_providers"("priority", "id");

-- CreateIndex
CREATE UNIQUE INDEX "system_prompts_prompt_id_key" ON "system_prompts"("prompt_id");

-- A fresh install asks OpenAI as soon as OPENAI_API_KEY is set (the row names the variable, never the key).
INSERT INTO "ai_providers" ("provider", "model", "api_key_env_var", "priority", "enabled") VALUES ('openai', 'gpt-4o-mini', 'OPENAI_API_KEY', 0, true);
