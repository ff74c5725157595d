import { Badge, Box, Button, Card, Flex, Spinner, Text } from '@chakra-ui/react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { useClearCache } from './mutations';
import { PriceTable } from './PriceTable';
import { useCacheStatus, usePriceRows } from './queries';

/** The spreadsheet price table (document 1, sections 2 and 8). */
export default function SheetsSection() {
  const { t, format } = useTexts();
  const prices = usePriceRows();
  const rows = prices.data?.data ?? [];
  const lastSynced = prices.data?.lastUpdated ?? (prices.dataUpdatedAt ? prices.dataUpdatedAt : null);

  const refresh = async () => {
    const result = await prices.refetch();
    if (result.isError) notify({ title: t('sheets.refreshFailed'), description: t('sheets.refreshFailedBody'), type: 'error' });
    else notify({ title: t('sheets.refreshed'), description: t('sheets.refreshedBody'), type: 'success' });
  };

  return (
    <>
      <PageHeader
        title={t('sheets.title')}
        subtitle={t('sheets.subtitle')}
        actions={
          <>
            <ConnectionBadge connected={prices.isSuccess} />
            <ClearCacheButton />
            <Button variant="outline" onClick={refresh} loading={prices.isFetching}>{t('sheets.refresh')}</Button>
          </>
        }
      />
      <Card.Root>
        <Card.Body p="0">
          {prices.isPending && (
            <Flex p="8" gap="3" justify="center" align="center" role="status">
              <Spinner size="sm" />
              <Text>{t('sheets.loading')}</Text>
            </Flex>
          )}
          {prices.isError && (
            <ErrorAlert borderRadius="0" testId="sheets-error" title={t('sheets.error')} description={errorText(prices.error, '') || undefined} />
          )}
          {prices.isSuccess && rows.length === 0 && <Text p="8" textAlign="center" color="fg.muted">{t('sheets.empty')}</Text>}
          {rows.length > 0 && <PriceTable rows={rows} />}
        </Card.Body>
        <Card.Footer py="3" borderTopWidth="1px" justifyContent="space-between" fontSize="sm" color="fg.muted" flexWrap="wrap" gap="2">
          <Text data-testid="last-synced">
            {lastSynced ? t('sheets.lastSynced', { time: format.dateTime(lastSynced) }) : t('sheets.neverSynced')}
          </Text>
          <Text data-testid="product-count">{t('sheets.productCount', { count: prices.data?.count ?? rows.length })}</Text>
          <Text>{t('sheets.sheetName')}</Text>
        </Card.Footer>
      </Card.Root>
    </>
  );
}

function ConnectionBadge({ connected }: { connected: boolean }) {
  const { t } = useTexts();
  return (
    <Box alignSelf="center">
      <Badge colorPalette={connected ? 'green' : 'red'} size="lg" data-testid="connection-status">
        {connected ? t('sheets.connected') : t('sheets.disconnected')}
      </Badge>
    </Box>
  );
}

/** Shown only while the prices are served from the cache. */
function ClearCacheButton() {
  const { t } = useTexts();
  const cache = useCacheStatus();
  const clear = useClearCache({
    onSuccess: () => notify({ title: t('sheets.cacheCleared'), description: t('sheets.cacheClearedBody'), type: 'success' }),
    // Document 1, section 8 gives this failure a fixed text.
    onError: () => notify({ title: t('sheets.cacheError'), description: t('sheets.cacheErrorBody'), type: 'error' }),
  });
  if (!cache.data?.cached) return null;
  return (
    <Button variant="outline" colorPalette="orange" onClick={() => clear.mutate()} loading={clear.isPending}>
      {t('sheets.clearCache')}
    </Button>
  );
}
