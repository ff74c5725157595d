import { isSimulatorUrl } from '@bo/platform';
import { aiProviderFamilies, type ConfigItem } from '@bo/proto';
import type { AiProviders, ProviderFamily } from './clients/ai-providers';
import type { AiChatConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';
import { providersStore } from './store/providers-store';

const CATEGORY = 'AI';
const familyNames: Record<ProviderFamily, string> = { openai: 'OpenAI API', gemini: 'Gemini API', claude: 'Claude API' };

/**
 * What the gateway's config-status page shows for this service: whether the parser has an AI to
 * fall back on (an enabled provider whose key is set), and per family whether an enabled provider
 * can use it and whether its base URL is a simulator. Keys never, only whether they are set.
 */
export async function aiChatConfigItems(config: AiChatConfig, prisma: PrismaClient, ai: AiProviders): Promise<ConfigItem[]> {
  const usable = (await providersStore.list(prisma, { enabledOnly: true })).filter((row) => ai.keyPresent(row.apiKeyEnvVar));
  const baseUrls: Record<ProviderFamily, string> = { openai: config.OPENAI_BASE_URL, gemini: config.GEMINI_BASE_URL, claude: config.CLAUDE_BASE_URL };
  const simulated = (family: ProviderFamily) => isSimulatorUrl(baseUrls[family]);
  return [
    {
      name: 'AI provider for the e-mail parser (enabled, with its API key set)',
      category: CATEGORY,
      configured: usable.length > 0,
      simulated: usable.length > 0 && usable.every((row) => simulated(row.provider as ProviderFamily)),
    },
    ...aiProviderFamilies.map((family) => ({ name: familyNames[family], category: CATEGORY, configured: usable.some((row) => row.provider === family), simulated: simulated(family) })),
  ];
}
