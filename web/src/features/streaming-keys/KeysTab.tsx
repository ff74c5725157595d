import { Box, Button, Card, Collapsible, Flex, Heading, Input, Progress, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/Form';
import { StatCard } from '../../components/StatCard';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { EXPIRING_SOON_DAYS, RECENT_KEYS, serviceCodeList, type StreamingKeyView } from './api';
import { AdminTools } from './AdminTools';
import { CreateKeyDialog } from './CreateKeyDialog';
import { ExpiryReportDialog } from './ExpiryReportDialog';
import { AttentionInvoices, CreateInvoiceCard } from './Invoices';
import { KeyList, KeyStatusBadge } from './KeyList';
import { useExpiringKeys, useKeys, useKeyStats, useRecentKeys, useSlotStats } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

const SEARCH_DELAY_MS = 300;

/** The text as typed, settled: the list is asked for once typing pauses, not per key press. */
function useSettled(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

const matches = (key: StreamingKeyView, text: string) => {
  const wanted = text.trim().toLowerCase();
  return !wanted || key.email.toLowerCase().includes(wanted) || key.key.toLowerCase().includes(wanted);
};

/** Document 3 §2's Keys tab, top to bottom: slots, counts, tools, orders, recent keys, then every key by account. */
export function KeysTab() {
  const { t } = useTexts();
  const [search, setSearch] = useState('');
  const settled = useSettled(search);
  const [expiringOnly, setExpiringOnly] = useState(false);
  const [dialog, setDialog] = useState<'create' | 'report' | null>(null);
  const allKeys = useKeys('');
  const searched = useKeys(settled);
  const expiring = useExpiringKeys(expiringOnly);
  const source = expiringOnly ? expiring : searched;
  useLoadFailureToast(source, t('streamingKeys.keysFetchFailed'));
  // The expiring list is short: the search narrows it here rather than in another call.
  const shown = expiringOnly ? expiring.data?.data.filter((key) => matches(key, settled)) : searched.data?.data;

  return (
    <Stack gap="6">
      <SlotOverview />
      <KeyCounts />
      <AdminTools keys={allKeys.data?.data ?? []} />
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6" alignItems="start">
        <AttentionInvoices />
        <CreateInvoiceCard />
      </SimpleGrid>
      <RecentKeys />
      <Card.Root size="sm">
        <Card.Header>
          <Stack gap="3">
            <Heading as="h2" size="md">{t('streamingKeys.keysTitle')}</Heading>
            <Flex gap="3" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }}>
              <Box flex="1">
                <FormField label={t('streamingKeys.search')}>
                  <Input type="search" name="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t('streamingKeys.searchPlaceholder')} autoComplete="off" />
                </FormField>
              </Box>
              <Flex gap="2" wrap="wrap">
                <Button variant={expiringOnly ? 'solid' : 'outline'} colorPalette="orange" aria-pressed={expiringOnly} onClick={() => setExpiringOnly((current) => !current)}>
                  {expiringOnly ? t('streamingKeys.viewAll') : t('streamingKeys.viewExpiring')}
                </Button>
                <Button variant="outline" onClick={() => setDialog('report')}>{t('streamingKeys.expiryReport')}</Button>
                <Button colorPalette="blue" onClick={() => setDialog('create')}>{t('streamingKeys.createKey')}</Button>
              </Flex>
            </Flex>
            {expiringOnly && <Text fontSize="sm" color="fg.muted">{t('streamingKeys.showingExpiring', { days: EXPIRING_SOON_DAYS })}</Text>}
          </Stack>
        </Card.Header>
        <Card.Body>
          <KeyList keys={shown} error={source.error} expiringOnly={expiringOnly} searching={settled !== ''} />
        </Card.Body>
      </Card.Root>
      {dialog === 'create' && <CreateKeyDialog onClose={() => setDialog(null)} />}
      {dialog === 'report' && <ExpiryReportDialog onClose={() => setDialog(null)} />}
    </Stack>
  );
}

/** occupied/total per service (document 3 §2). */
function SlotOverview() {
  const { t } = useTexts();
  const slots = useSlotStats();
  useLoadFailureToast(slots, t('streamingKeys.slotsFetchFailed'));
  return (
    <Card.Root size="sm" data-testid="slot-overview">
      <Card.Header>
        <Heading as="h2" size="md">{t('streamingKeys.slotsTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('streamingKeys.slotsSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        {slots.isError && <ErrorAlert title={t('streamingKeys.slotsFetchFailed')} description={errorText(slots.error, slots.error.message)} />}
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 5 }} gap="3">
          {serviceCodeList.map((code) => {
            const slot = slots.data?.data.services[code];
            if (!slot) return slots.isPending ? <Skeleton key={code} h="14" /> : null;
            return (
              <Stack key={code} gap="1" data-service={code} aria-label={t('streamingKeys.slotsLabel', { service: slot.serviceName, occupied: slot.occupiedSlots, total: slot.totalSlots })}>
                <Flex justify="space-between" gap="2">
                  <Text fontWeight="medium">{slot.serviceName}</Text>
                  <Text fontWeight="bold" data-testid={`slots-${code}`}>{t('streamingKeys.slotsOf', { occupied: slot.occupiedSlots, total: slot.totalSlots })}</Text>
                </Flex>
                <Progress.Root value={slot.totalSlots ? (slot.occupiedSlots / slot.totalSlots) * 100 : 0} size="sm" colorPalette="blue">
                  <Progress.Track><Progress.Range /></Progress.Track>
                </Progress.Root>
              </Stack>
            );
          })}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}

function KeyCounts() {
  const { t, format } = useTexts();
  const stats = useKeyStats();
  useLoadFailureToast(stats, t('streamingKeys.statsFetchFailed'));
  if (stats.isError) return <ErrorAlert title={t('streamingKeys.statsFetchFailed')} description={errorText(stats.error, stats.error.message)} />;
  const value = (count: number | undefined) => (count === undefined ? '—' : format.number(count));
  return (
    <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" data-testid="key-stats">
      <StatCard label={t('streamingKeys.stat.total')} value={value(stats.data?.totalKeys)} />
      <StatCard label={t('streamingKeys.stat.active')} value={value(stats.data?.activeKeys)} />
      <StatCard label={t('streamingKeys.stat.expired')} value={value(stats.data?.expired)} />
      <StatCard label={t('streamingKeys.stat.expiringSoon', { days: EXPIRING_SOON_DAYS })} value={value(stats.data?.expiringSoon)} />
    </SimpleGrid>
  );
}

/** The 20 newest keys, collapsed until opened (only then asked for), with a search of their own and Refresh. */
function RecentKeys() {
  const { t, format } = useTexts();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const recent = useRecentKeys(open);
  useLoadFailureToast(recent, t('streamingKeys.recentFetchFailed'));
  const rows = (recent.data?.data ?? []).filter((key) => matches(key, search));
  const columns: Column<StreamingKeyView>[] = [
    { key: 'key', header: t('streamingKeys.col.key'), cell: (row) => <Text fontFamily="mono">{row.key}</Text> },
    { key: 'service', header: t('streamingKeys.col.service'), cell: (row) => row.serviceName },
    { key: 'email', header: t('streamingKeys.col.email'), cell: (row) => row.email },
    { key: 'profile', header: t('streamingKeys.col.profile'), cell: (row) => row.profileNumber },
    { key: 'status', header: t('streamingKeys.col.status'), cell: (row) => <KeyStatusBadge status={row.status} /> },
    { key: 'created', header: t('streamingKeys.col.created'), cell: (row) => format.dateTime(row.createdAt) },
  ];
  return (
    <Collapsible.Root open={open} onOpenChange={(event) => setOpen(event.open)}>
      <Card.Root size="sm" data-testid="recent-keys">
        <Card.Header>
          <Flex gap="2" align="center" justify="space-between" wrap="wrap">
            {/* The disclosure pattern: the heading holds the button that opens the list. */}
            <Heading as="h2" size="md">
              <Collapsible.Trigger asChild>
                <Button variant="ghost" px="1" size="md" fontSize="inherit" fontWeight="inherit">{`${open ? '▾' : '▸'} ${t('streamingKeys.recentTitle')}`}</Button>
              </Collapsible.Trigger>
            </Heading>
            {open && (
              <Button size="xs" variant="outline" onClick={() => void recent.refetch()} loading={recent.isFetching} loadingText={t('streamingKeys.refreshing')}>{t('streamingKeys.refresh')}</Button>
            )}
          </Flex>
        </Card.Header>
        <Collapsible.Content>
          <Card.Body>
            <Stack gap="3">
              <Text fontSize="sm" color="fg.muted">{t('streamingKeys.recentSubtitle', { count: RECENT_KEYS })}</Text>
              <Box maxW="md">
                <FormField label={t('streamingKeys.recentSearch')}>
                  <Input type="search" name="recentSearch" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
                </FormField>
              </Box>
              {recent.isError && <ErrorAlert title={t('streamingKeys.recentFetchFailed')} description={errorText(recent.error, recent.error.message)} />}
              {recent.isSuccess && rows.length === 0 && <Text color="fg.muted">{search ? t('streamingKeys.noMatch') : t('streamingKeys.noKeys')}</Text>}
              {rows.length > 0 && <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} caption={t('streamingKeys.recentTitle')} testId="recent-keys-table" />}
            </Stack>
          </Card.Body>
        </Collapsible.Content>
      </Card.Root>
    </Collapsible.Root>
  );
}
