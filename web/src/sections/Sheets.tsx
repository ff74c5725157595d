import { Alert, Badge, Box, Button, Card, Flex, Spinner, Text } from '@chakra-ui/react';
import { PageHeader } from '../components/PageHeader';
import { t } from '../i18n';
import { errorText } from '../lib/api';
import { useClearCache } from '../lib/mutations';
import { useCacheStatus, usePriceRows } from '../lib/queries';
import { notify } from '../lib/toast';
import { PriceTable } from './PriceTable';

/** The spreadsheet price table (document 1, sections 2 and 8). */
export default function Sheets() {
  const prices = usePriceRows();
  const rows = prices.data?.data ?? [];
  const lastSynced = prices.data?.lastUpdated ?? (prices.dataUpdatedAt ? new Date(prices.dataUpdatedAt).toISOString() : null);

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
            <Flex p="8" gap="3" justify="center" align="center">
              <Spinner size="sm" />
              <Text>{t('sheets.loading')}</Text>
            </Flex>
          )}
          {prices.isError && (
            <Alert.Root status="error" borderRadius="0" data-testid="sheets-error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('sheets.error')}</Alert.Title>
                <Alert.Description>{errorText(prices.error, '')}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {prices.isSuccess && rows.length === 0 && <Text p="8" textAlign="center" color="fg.muted">{t('sheets.empty')}</Text>}
          {rows.length > 0 && <PriceTable rows={rows} />}
        </Card.Body>
        <Card.Footer py="3" borderTopWidth="1px" justifyContent="space-between" fontSize="sm" color="fg.muted" flexWrap="wrap" gap="2">
          <Text data-testid="last-synced">
            {lastSynced ? t('sheets.lastSynced', { time: new Date(lastSynced).toLocaleString() }) : t('sheets.neverSynced')}
          </Text>
          <Text>{t('sheets.sheetName')}</Text>
        </Card.Footer>
      </Card.Root>
    </>
  );
}

function ConnectionBadge({ connected }: { connected: boolean }) {
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
  const cache = useCacheStatus();
  const clear = useClearCache({
    onSuccess: () => notify({ title: t('sheets.cacheCleared'), description: t('sheets.cacheClearedBody'), type: 'success' }),
    onError: () => notify({ title: t('sheets.cacheError'), description: t('sheets.cacheErrorBody'), type: 'error' }),
  });
  if (!cache.data?.cached) return null;
  return (
    <Button variant="outline" colorPalette="orange" onClick={() => clear.mutate()} loading={clear.isPending}>
      {t('sheets.clearCache')}
    </Button>
  );
}
