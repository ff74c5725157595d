import { Code, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { ServiceName } from '../../components/ServiceName';
import { useTexts } from '../../i18n';
import type { ScheduleView } from './api';

/** Every schedule: its cron expression, when it last ticked, when it runs next, and its last run (a link to that run's details). */
export function SchedulesTable({ schedules, runHref }: { schedules: readonly ScheduleView[]; runHref: (id: string) => string }) {
  const { t, format } = useTexts();
  const dateOr = (value: string | null, none: string) => (value ? <Text whiteSpace="nowrap">{format.dateTime(value)}</Text> : <Text color="fg.muted">{none}</Text>);
  const columns: Column<ScheduleView>[] = [
    { key: 'name', header: t('runs.schedules.col.name'), cell: (schedule) => <Text fontWeight="medium" whiteSpace="nowrap">{schedule.name}</Text> },
    { key: 'service', header: t('runs.schedules.col.service'), cell: (schedule) => <ServiceName service={schedule.service} /> },
    { key: 'expression', header: t('runs.schedules.col.expression'), cell: (schedule) => <Code fontSize="xs" whiteSpace="nowrap">{schedule.expression}</Code> },
    { key: 'lastTick', header: t('runs.schedules.col.lastTick'), cell: (schedule) => dateOr(schedule.lastTickAt, t('runs.schedules.never')) },
    { key: 'nextRun', header: t('runs.schedules.col.nextRun'), cell: (schedule) => dateOr(schedule.nextRunAt, '—') },
    {
      key: 'lastRun',
      header: t('runs.schedules.col.lastRun'),
      cell: (schedule) =>
        schedule.lastRunId ? (
          <Link asChild fontFamily="mono" fontSize="xs" colorPalette="blue" whiteSpace="nowrap">
            <RouterLink to={runHref(schedule.lastRunId)} aria-label={t('runs.schedules.openRun', { id: schedule.lastRunId })}>
              {shortRunId(schedule.lastRunId)}
            </RouterLink>
          </Link>
        ) : (
          <Text color="fg.muted">—</Text>
        ),
    },
  ];
  return (
    <DataTable
      testId="schedules-table"
      caption={t('runs.schedules.caption')}
      columns={columns}
      rows={schedules}
      rowKey={(schedule) => `${schedule.service}/${schedule.name}`}
      rowProps={(schedule) => ({ 'data-schedule': schedule.name })}
    />
  );
}

/** `shop-sync.0b7c6a44-…` → `shop-sync.0b7c6a44`: enough to tell runs apart on screen. */
const shortRunId = (id: string) => id.replace(/^([^.]+\.[0-9a-f]{8})-.*$/i, '$1');
