import { Code, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LabelledValues } from '../../components/LabelledValues';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { LabelledJson } from '../../components/JsonBlock';
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
          <LabelledJson label={t('auditLog.detail.imported')} value={entry.after} empty="—" highlight={changed} testId="audit-after" maxH="96" />
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <LabelledJson label={t('auditLog.detail.before')} value={entry.before} empty={t('auditLog.detail.noBefore')} highlight={changed} testId="audit-before" maxH="96" />
            <LabelledJson label={t('auditLog.detail.after')} value={entry.after} empty={t('auditLog.detail.noAfter')} highlight={changed} testId="audit-after" maxH="96" />
          </SimpleGrid>
        )}
      </Stack>
    </Dialog>
  );
}
