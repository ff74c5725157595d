import { Box, Button, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { SectionCard } from '../../components/SectionCard';
import { useTexts, type MessageKey } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';

/** Document 2 §8: a failed call's destructive toast, titled 'Error': the server's `error`, else the spec's default. */
export function useFailureToast() {
  const { t } = useTexts();
  return (fallback: MessageKey) => (error: unknown) => notifyError(t('aiAdmin.error'), error, t(fallback));
}

/** Document 2 §5: what a form is missing, said before anything is sent, titled 'Validation Error'. */
export function useValidationToast() {
  const { t } = useTexts();
  return (message: MessageKey) => notify({ title: t('aiAdmin.validation'), description: t(message), type: 'error' });
}

/** The page's sections, in order: each card's anchor (the page's jump links) and its test id. */
export const sections = [
  { id: 'ai-status', title: 'aiAdmin.status.title' },
  { id: 'system-prompts', title: 'aiAdmin.prompts.title' },
  { id: 'ai-providers', title: 'aiAdmin.providers.title' },
  { id: 'email-parser-prompt', title: 'aiAdmin.parser.title' },
  { id: 'expiry-template', title: 'aiAdmin.expiry.title' },
  { id: 'chat-flows', title: 'aiAdmin.flows.title' },
  { id: 'flow-mappings', title: 'aiAdmin.mappings.title' },
  { id: 'flow-tester', title: 'aiAdmin.tester.title' },
  { id: 'knowledge-base', title: 'aiAdmin.knowledge.title' },
  { id: 'conversations', title: 'aiAdmin.conv.title' },
] as const satisfies readonly { id: string; title: MessageKey }[];
export type SectionId = (typeof sections)[number]['id'];

/** One card of the page: its h2 (the section's name), a line about it, buttons on the right, and its body. */
export function AdminCard({ id, subtitle, actions, badge, children }: { id: SectionId; subtitle?: string; actions?: ReactNode; badge?: ReactNode; children: ReactNode }) {
  const { t } = useTexts();
  const title = sections.find((section) => section.id === id)!.title;
  return <SectionCard id={id} title={t(title)} subtitle={subtitle} actions={actions} badge={badge}>{children}</SectionCard>;
}

export { ListState, Loading } from '../../components/SectionCard';

/**
 * For a table cell holding something visually hidden (a screen-reader header, a switch's input):
 * positioned, so that the hidden part scrolls with the table instead of widening the page.
 */
export const contained = { position: 'relative' } as const;

/** A row's Edit and Delete, named after the row for screen readers (several rows, one name each). */
export function RowActions({ name, onEdit, onDelete, busy }: { name: string; onEdit?: () => void; onDelete: () => void; busy?: boolean }) {
  const { t } = useTexts();
  return (
    <Flex gap="1" justify="flex-end" wrap="nowrap">
      {onEdit && (
        <Button size="xs" variant="outline" onClick={onEdit} aria-label={t('aiAdmin.editLabel', { name })}>{t('aiAdmin.edit')}</Button>
      )}
      <Button size="xs" variant="outline" colorPalette="red" onClick={onDelete} loading={busy} aria-label={t('aiAdmin.deleteLabel', { name })}>{t('aiAdmin.delete')}</Button>
    </Flex>
  );
}

/** A text that keeps its own line breaks and wraps long words (prompts, knowledge, chat messages). */
export function LongText({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box as="span" display="block" whiteSpace="pre-wrap" wordBreak="break-word" fontSize="sm" data-testid={testId}>
      {children}
    </Box>
  );
}
