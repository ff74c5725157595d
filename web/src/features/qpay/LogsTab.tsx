import { Badge, Box, Button, Collapsible, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LabelledJson } from '../../components/JsonBlock';
import { useTexts, type MessageKey } from '../../i18n';
import type { WebhookLog } from './api';
import { ListCard } from './ListCard';
import { useQpayLogs } from './queries';

const statusLook: Record<WebhookLog['status'], { label: MessageKey; palette: string }> = {
  accepted: { label: 'qpay.log.accepted', palette: 'green' },
  ignored: { label: 'qpay.log.ignored', palette: 'gray' },
  rejected: { label: 'qpay.log.rejected', palette: 'orange' },
  error: { label: 'qpay.log.error', palette: 'red' },
};

/** Callbacks, chat webhooks, checks and approvals, newest first; each one's request and response on demand. */
export function LogsTab() {
  const { t } = useTexts();
  const logs = useQpayLogs();
  return (
    <ListCard
      title={t('qpay.logsTitle')}
      subtitle={t('qpay.logsSubtitle')}
      query={logs}
      loading={t('qpay.logsLoading')}
      failed={t('qpay.logsFetchFailed')}
      empty={t('qpay.logsEmpty')}
      testId="webhook-logs"
    >
      <Stack gap="2" as="ul" listStyleType="none">
        {(logs.data?.data ?? []).map((log) => <LogEntry key={log.id} log={log} />)}
      </Stack>
    </ListCard>
  );
}

function LogEntry({ log }: { log: WebhookLog }) {
  const { t, format } = useTexts();
  const [open, setOpen] = useState(false);
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3" bg="bg" data-log-type={log.type} data-reference={log.reference ?? ''} data-status={log.status}>
      <Collapsible.Root open={open} onOpenChange={(event) => setOpen(event.open)}>
        <Flex gap="2" align="center" wrap="wrap">
          <Badge variant="outline" fontFamily="mono">{log.type}</Badge>
          <Badge colorPalette={statusLook[log.status].palette}>{t(statusLook[log.status].label)}</Badge>
          {log.reference && <Text fontFamily="mono" fontSize="sm" wordBreak="break-all">{log.reference}</Text>}
        </Flex>
        <Text fontSize="xs" color="fg.muted" mt="1">
          {format.dateTime(log.createdAt)}
          {log.responseTime !== null && ` · ${t('qpay.responseTime', { ms: format.number(log.responseTime) })}`}
        </Text>
        {log.errorMessage && <Text fontSize="sm" color="fg.error" mt="1" data-testid="log-error">{log.errorMessage}</Text>}
        <Collapsible.Trigger asChild>
          <Button size="xs" variant="ghost" mt="1" px="1">{open ? t('qpay.hideData') : t('qpay.showData')}</Button>
        </Collapsible.Trigger>
        <Collapsible.Content>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="3" mt="2">
            <LabelledJson label={t('qpay.requestData')} value={log.requestData} testId="log-request" />
            <LabelledJson label={t('qpay.responseData')} value={log.responseData} testId="log-response" />
          </SimpleGrid>
        </Collapsible.Content>
      </Collapsible.Root>
    </Box>
  );
}
