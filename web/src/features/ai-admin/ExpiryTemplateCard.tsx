import { Badge, Box, Code, DataList, Flex, Heading, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { expirySample, expiryTemplateLines, expiryTemplateVariables, fillTemplate, RENEWAL_BUTTON_MONTHS, renewalButtonCaption } from './api';
import { useReminderTemplates } from './queries';
import { AdminCard } from './shared';

/**
 * Document 2 §2.1 Expiry-notification template, read-only: the message with its variables
 * (serviceName, profileNumber, formattedExpiry, monthlyPrice: tugrik per month) and the renewal
 * buttons for 1 to 6 months appended, shown as written and on a sample key. Beside it, the renewal
 * reminder the notifications service sends now, from the same preview /manychat-admin shows.
 */
export function ExpiryTemplateCard() {
  const { t } = useTexts();
  return (
    <AdminCard id="expiry-template" subtitle={t('aiAdmin.expiry.subtitle')} badge={<Badge variant="outline">{t('aiAdmin.readOnly')}</Badge>}>
      <Stack gap="5">
        <Box>
          <Heading as="h3" size="sm" mb="2">{t('aiAdmin.expiry.template')}</Heading>
          <Message testId="expiry-template-text">{highlightVariables(expiryTemplateLines.join('\n'))}</Message>
          <Buttons />
        </Box>
        <Box>
          <Heading as="h3" size="sm" mb="2">{t('aiAdmin.expiry.variables')}</Heading>
          <DataList.Root orientation="horizontal" size="sm" data-testid="expiry-variables">
            {expiryTemplateVariables.map((variable) => (
              <DataList.Item key={variable}>
                <DataList.ItemLabel minW="36"><Code size="sm">{variable}</Code></DataList.ItemLabel>
                <DataList.ItemValue>{t(`aiAdmin.expiry.var.${variable}`)}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
        </Box>
        <Box>
          <Heading as="h3" size="sm" mb="2">{t('aiAdmin.expiry.preview')}</Heading>
          <Message testId="expiry-preview">{fillTemplate(expiryTemplateLines, expirySample)}</Message>
          <Buttons />
        </Box>
        <ReminderSentNow />
      </Stack>
    </AdminCard>
  );
}

/** A chat message as the chat shows it: its own line breaks, no markup. */
function Message({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Box as="pre" whiteSpace="pre-wrap" wordBreak="break-word" fontFamily="inherit" fontSize="sm" bg="bg.muted" borderRadius="md" p="3" data-testid={testId}>
      {children}
    </Box>
  );
}

/** The renewal buttons appended under the message, as the chat lays them out. */
function Buttons() {
  const { t } = useTexts();
  return (
    <Box mt="2">
      <Text fontSize="xs" color="fg.muted" mb="1">{t('aiAdmin.expiry.buttons')}</Text>
      <Flex as="ul" gap="2" wrap="wrap" listStyleType="none" data-testid="renewal-buttons">
        {RENEWAL_BUTTON_MONTHS.map((months) => (
          <Box as="li" key={months} borderWidth="1px" borderRadius="md" px="3" py="1" fontSize="sm" bg="bg">
            {renewalButtonCaption(months)}
          </Box>
        ))}
      </Flex>
    </Box>
  );
}

/** The template's `{variable}` parts marked, so they read apart from the fixed text. */
function highlightVariables(text: string): ReactNode[] {
  return text.split(/(\{\w+\})/g).map((part, index) =>
    /^\{\w+\}$/.test(part) ? (
      <Text as="mark" key={index} bg="blue.subtle" color="blue.fg" borderRadius="sm" px="0.5" fontFamily="mono" fontSize="xs">
        {part}
      </Text>
    ) : (
      part
    ),
  );
}

function ReminderSentNow() {
  const { t } = useTexts();
  const templates = useReminderTemplates();
  const reminder = templates.data?.data.find((template) => template.kind === 'renewal_reminder');
  return (
    <Box>
      <Heading as="h3" size="sm" mb="1">{t('aiAdmin.expiry.reminderTitle')}</Heading>
      <Text fontSize="sm" color="fg.muted" mb="2">
        {t('aiAdmin.expiry.reminderBody')}{' '}
        <ChakraLink asChild colorPalette="blue">
          <Link to="/manychat-admin?tab=notifications">{t('nav.manychatAdmin')}</Link>
        </ChakraLink>
      </Text>
      {templates.isError && <ErrorAlert title={t('aiAdmin.expiry.reminderFailed')} description={errorText(templates.error, templates.error.message)} />}
      {reminder && <Message testId="reminder-preview">{reminder.sample}</Message>}
    </Box>
  );
}
