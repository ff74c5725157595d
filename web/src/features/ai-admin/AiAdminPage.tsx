import { SimpleGrid, Stack } from '@chakra-ui/react';
import { JumpLinks } from '../../components/JumpLinks';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { ConversationsCard } from './ConversationsCard';
import { ExpiryTemplateCard } from './ExpiryTemplateCard';
import { FlowsCard, FlowTesterCard, MappingsCard } from './FlowsCards';
import { KnowledgeCard } from './KnowledgeCard';
import { ParserPromptCard } from './ParserPromptCard';
import { PromptsCard } from './PromptsCard';
import { ProvidersCard } from './ProvidersCard';
import { sections } from './shared';
import { StatusCard } from './StatusCard';

/**
 * /ai-admin (document 2 §2.1): the chatbot's status, system prompts and AI providers, the e-mail
 * parser's prompt, the expiry notification, chat flows with their mappings and routing tester,
 * the knowledge base with its test search, and the conversations. The admin guard around the shell
 * renders it only for a signed-in administrator, so its data loads only then; the shell's sidebar
 * has the logout button.
 */
export default function AiAdminPage() {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t('aiAdmin.title')} subtitle={t('aiAdmin.subtitle')} />
      <JumpLinks label="aiAdmin.jumpTo" sections={sections} />
      <Stack gap="6">
        <StatusCard />
        <PromptsCard />
        <ProvidersCard />
        <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6" alignItems="start">
          <ParserPromptCard />
          <ExpiryTemplateCard />
        </SimpleGrid>
        <FlowsCard />
        <MappingsCard />
        <FlowTesterCard />
        <KnowledgeCard />
        <ConversationsCard />
      </Stack>
    </>
  );
}
