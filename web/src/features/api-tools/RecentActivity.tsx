import { Badge, Text } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { ListState, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { RECENT_ACTIVITY_ROWS, type RequestLogEntry } from './api';
import { MethodBadge } from './MethodBadge';
import { latestEntries, statusTone, tonePalette } from './model';
import { useRequestLog } from './queries';

/** The 10 latest requests of the gateway's request log: 2xx green, 4xx orange, anything else red. */
export function RecentActivity() {
  const { t, format } = useTexts();
  const log = useRequestLog();
  const rows = latestEntries(log.data?.data ?? [], RECENT_ACTIVITY_ROWS);
  const columns: Column<RequestLogEntry>[] = [
    { key: 'method', header: t('apiTools.col.method'), cell: (row) => <MethodBadge method={row.method} /> },
    {
      key: 'endpoint',
      header: t('apiTools.col.endpoint'),
      cell: (row) => <Text fontFamily="mono" fontSize="xs" wordBreak="break-all">{row.endpoint}</Text>,
    },
    {
      key: 'status',
      header: t('apiTools.col.status'),
      cell: (row) => {
        const tone = statusTone(row.statusCode);
        return <Badge colorPalette={tonePalette[tone]} data-testid="activity-status" data-tone={tone}>{row.statusCode}</Badge>;
      },
    },
    { key: 'responseTime', header: t('apiTools.col.responseTime'), cell: (row) => row.responseTime, cellProps: { whiteSpace: 'nowrap' } },
    { key: 'timestamp', header: t('apiTools.col.timestamp'), cell: (row) => format.dateTime(row.timestamp), cellProps: { whiteSpace: 'nowrap' } },
  ];
  return (
    <SectionCard title={t('apiTools.activity.title')} subtitle={t('apiTools.activity.subtitle')} testId="recent-activity">
      <ListState query={log} failed={t('apiTools.activity.failed')} empty={t('apiTools.activity.empty')} count={rows.length}>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.id)}
          rowProps={(row) => ({ 'data-testid': 'activity-row', 'data-status': row.statusCode })}
          caption={t('apiTools.activity.title')}
        />
      </ListState>
    </SectionCard>
  );
}
