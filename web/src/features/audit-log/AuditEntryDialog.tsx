import { Box, Code, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LabelledValues } from '../../components/LabelledValues';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { JsonBlock } from '../../components/JsonBlock';
import { ServiceName } from '../../components/ServiceName';
import { useTexts } from '../../i18n';
import { useRowName } from './AuditBits';
import type { AuditEntryView } from './api';
import { changedFields } from './model';

/**
 * One change: who made it, when, from where and with which request, and the row before and after it
 * side by side (one above the other on a phone), the fields an edit changed named and marked.
 */
export function AuditEntryDialog({ entry, onClose }: { entry: AuditEntryView; onClose: () => void }) {
  const { t, format } = useTexts();
  const rowName = useRowName();
  const changed = changedFields(entry);
  const row = `${entry.entity} · ${rowName(entry)}`;
  const items: [string, ReactNode][] = [
    [t('auditLog.detail.when'), <time dateTime={entry.at}>{format.dateTime(entry.at)}</time>],
    [t('auditLog.detail.who'), entry.actorName],
    ...(entry.actorId ? [[t('auditLog.detail.actorId'), <Code fontSize="xs" wordBreak="break-all">{entry.actorId}</Code>] as [string, ReactNode]] : []),
    [t('auditLog.detail.address'), entry.address ?? t('auditLog.noAddress')],
    [t('auditLog.detail.service'), <ServiceName service={entry.service} />],
    [t('auditLog.detail.row'), <Code fontSize="xs" overflowWrap="anywhere">{row}</Code>],
    [t('auditLog.detail.request'), <Code fontSize="xs" overflowWrap="anywhere">{entry.request}</Code>],
    ...(entry.correlationId
      ? [[t('auditLog.detail.correlationId'), (
          <Flex gap="2" align="center" minW="0">
            <Code fontSize="xs" truncate>{entry.correlationId}</Code>
            <CopyButton value={entry.correlationId} what={t('auditLog.detail.correlationId')} />
          </Flex>
        )] as [string, ReactNode]]
      : []),
  ];
  return (
    <Dialog open onClose={onClose} size="xl" title={t('auditLog.detail.title', { action: t(`auditLog.action.${entry.action}`), entity: row })}>
      <Stack gap="5" data-testid="audit-detail" data-audit-id={entry.id}>
        <LabelledValues items={items} />

        {entry.action === 'update' && (
          <Text fontSize="sm" fontWeight="medium" data-testid="audit-changed">
            {changed.length > 0 ? t('auditLog.detail.changed', { fields: changed.join(', ') }) : t('auditLog.detail.unchanged')}
          </Text>
        )}

        {entry.action === 'import' ? (
          <RowSide title={t('auditLog.detail.imported')} value={entry.after} none="—" changed={changed} testId="audit-after" />
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <RowSide title={t('auditLog.detail.before')} value={entry.before} none={t('auditLog.detail.noBefore')} changed={changed} testId="audit-before" />
            <RowSide title={t('auditLog.detail.after')} value={entry.after} none={t('auditLog.detail.noAfter')} changed={changed} testId="audit-after" />
          </SimpleGrid>
        )}
      </Stack>
    </Dialog>
  );
}

function RowSide({ title, value, none, changed, testId }: { title: string; value: Record<string, unknown> | null; none: string; changed: readonly string[]; testId: string }) {
  return (
    <Box minW="0">
      <Heading as="h3" size="sm" mb="2">{title}</Heading>
      {value === null ? <Text fontSize="sm" color="fg.muted" data-testid={testId}>{none}</Text> : <JsonBlock value={value} highlight={changed} testId={testId} maxH="96" />}
    </Box>
  );
}
