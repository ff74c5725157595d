import { Button, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { ServiceName } from '../../components/ServiceName';
import { useTexts } from '../../i18n';
import { ActionBadge, useRowName } from './AuditBits';
import type { AuditEntryView } from './api';

/** The entries, newest first: a row per changed row; its Details button opens the row before and after. */
export function AuditTable({ entries, onOpen }: { entries: readonly AuditEntryView[]; onOpen: (entry: AuditEntryView) => void }) {
  const { t, format } = useTexts();
  const rowName = useRowName();
  const columns: Column<AuditEntryView>[] = [
    {
      key: 'when',
      header: t('auditLog.col.when'),
      // May wrap: a date in Mongolian is twice as long as in English.
      cell: (entry) => <Text minW="32" fontSize="sm" title={entry.at}><time dateTime={entry.at}>{format.dateTime(entry.at)}</time></Text>,
    },
    {
      key: 'who',
      header: t('auditLog.col.who'),
      cell: (entry) => (
        <Stack gap="0">
          <Text fontSize="sm" fontWeight="medium" data-testid="audit-actor">{entry.actorName}</Text>
          <Text fontSize="xs" color="fg.muted" fontFamily="mono" data-testid="audit-address">{entry.address ?? t('auditLog.noAddress')}</Text>
        </Stack>
      ),
    },
    { key: 'service', header: t('auditLog.col.service'), cell: (entry) => <ServiceName service={entry.service} /> },
    { key: 'action', header: t('auditLog.col.action'), cell: (entry) => <ActionBadge action={entry.action} /> },
    {
      key: 'entity',
      header: t('auditLog.col.entity'),
      cell: (entry) => (
        <Stack gap="0">
          <Text fontFamily="mono" fontSize="xs" data-testid="audit-entity">{entry.entity}</Text>
          <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">{rowName(entry)}</Text>
        </Stack>
      ),
    },
    {
      key: 'request',
      header: t('auditLog.col.request'),
      cell: (entry) => <Text fontFamily="mono" fontSize="xs" whiteSpace="nowrap" data-testid="audit-request">{entry.request}</Text>,
    },
    {
      key: 'details',
      header: <VisuallyHidden>{t('auditLog.col.details')}</VisuallyHidden>,
      cell: (entry) => (
        <Button size="xs" variant="outline" onClick={() => onOpen(entry)} aria-label={t('auditLog.detailsOf', { entity: entry.entity, when: format.dateTime(entry.at) })}>
          {t('auditLog.details')}
        </Button>
      ),
      // The hidden header is placed in its own cell: against the card it would widen the page on a phone.
      headerProps: { position: 'relative' },
      cellProps: { textAlign: 'end' },
    },
  ];
  return (
    <DataTable
      testId="audit-table"
      caption={t('auditLog.caption')}
      columns={columns}
      rows={entries}
      rowKey={(entry) => entry.id}
      rowProps={(entry) => ({ 'data-audit-id': entry.id, 'data-service': entry.service, 'data-action': entry.action, 'data-entity': entry.entity })}
    />
  );
}
