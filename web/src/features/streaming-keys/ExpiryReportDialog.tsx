import { Badge, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts, type MessageKey } from '../../i18n';
import { errorText } from '../../lib/api';
import { saveFile } from '../../lib/download';
import { CountGrid } from './CountGrid';
import { EXPIRING_SOON_DAYS, type ExpiryReport, type ExpiryReportKey } from './api';
import { useExpiryReport } from './queries';
import { expiryReportCsv, expiryReportFileName } from './report';
import { useLoadFailureToast } from '../qpay/load-failure';

const counts: { field: keyof Omit<ExpiryReport, 'keys'>; label: MessageKey }[] = [
  { field: 'total', label: 'streamingKeys.report.total' },
  { field: 'sent', label: 'streamingKeys.report.sent' },
  { field: 'failed', label: 'streamingKeys.report.failed' },
  { field: 'optedOut', label: 'streamingKeys.report.optedOut' },
  { field: 'held', label: 'streamingKeys.report.held' },
  { field: 'pending', label: 'streamingKeys.report.pending' },
];
const notificationColours = { sent: 'green', failed: 'red', opted_out: 'orange', held: 'purple', pending: 'gray' } as const;

/** The report's rows as a CSV file, saved by the browser under today's date. */
function download(keys: readonly ExpiryReportKey[]) {
  saveFile(new Blob([expiryReportCsv(keys)], { type: 'text/csv;charset=utf-8' }), expiryReportFileName());
}

/** Document 3 §2/§3: Total, Sent, Failed, Opted Out, Held and Pending, the keys (a failed or held reminder with its reason), and the CSV export. */
export function ExpiryReportDialog({ onClose }: { onClose: () => void }) {
  const { t, format } = useTexts();
  const report = useExpiryReport(true);
  useLoadFailureToast(report, t('streamingKeys.reportFetchFailed'));
  const keys = report.data?.keys ?? [];
  const columns: Column<ExpiryReportKey>[] = [
    { key: 'service', header: t('streamingKeys.col.service'), cell: (row) => row.serviceName },
    { key: 'email', header: t('streamingKeys.col.email'), cell: (row) => row.email },
    { key: 'key', header: t('streamingKeys.col.key'), cell: (row) => <Text fontFamily="mono">{row.key}</Text> },
    { key: 'expires', header: t('streamingKeys.col.expires'), cell: (row) => format.dateTime(row.expiresAt) },
    {
      key: 'status',
      header: t('streamingKeys.col.notification'),
      cell: (row) => {
        const status = row.notificationStatus ?? 'pending';
        return (
          <Stack gap="1" align="flex-start" maxW="64" whiteSpace="normal">
            <Badge colorPalette={notificationColours[status]}>{t(`streamingKeys.notification.${status}`)}</Badge>
            {/* Why it failed or is held (notifications' words: what to set, and where). */}
            {row.notificationError && <Text fontSize="xs" color="fg.muted" data-testid="notification-error">{row.notificationError}</Text>}
          </Stack>
        );
      },
    },
    { key: 'attempts', header: t('streamingKeys.col.attempts'), cell: (row) => format.number(row.notificationAttempts), cellProps: { textAlign: 'end' } },
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.reportTitle')}
      size="xl"
      footer={
        <Flex gap="2" wrap="wrap" justify="flex-end">
          <Button variant="outline" onClick={() => void report.refetch()} loading={report.isFetching}>{t('streamingKeys.refresh')}</Button>
          <Button colorPalette="blue" onClick={() => download(keys)} disabled={!report.isSuccess}>{t('streamingKeys.exportCsv')}</Button>
          <Button variant="outline" onClick={onClose}>{t('common.close')}</Button>
        </Flex>
      }
    >
      <Stack gap="4" data-testid="expiry-report">
        <Text color="fg.muted" fontSize="sm">{t('streamingKeys.reportSubtitle', { days: EXPIRING_SOON_DAYS })}</Text>
        {report.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('streamingKeys.loading')}</Text></Flex>}
        {report.isError && <ErrorAlert title={t('streamingKeys.reportFetchFailed')} description={errorText(report.error, report.error.message)} />}
        {report.data && (
          <>
            <CountGrid counts={counts.map(({ field, label }) => ({ field, label: t(label), value: report.data[field] }))} />
            {keys.length === 0 ? (
              <Text color="fg.muted">{t('streamingKeys.reportEmpty', { days: EXPIRING_SOON_DAYS })}</Text>
            ) : (
              <DataTable columns={columns} rows={keys} rowKey={(row) => String(row.id)} caption={t('streamingKeys.reportTitle')} testId="expiry-report-table" />
            )}
          </>
        )}
      </Stack>
    </Dialog>
  );
}
