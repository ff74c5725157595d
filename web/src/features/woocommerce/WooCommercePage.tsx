import { Alert, Badge, Button, Card, Flex, Heading, Link as ExternalLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import type { AutoMapReply, ExportReply, StoreStatusReply } from './api';
import { MappingsCard } from './MappingsCard';
import { useAutoMap, useExportToSheets, useSyncAll } from './mutations';
import { OrderLookupCard } from './OrderLookupCard';
import { PricePushesCard } from './PricePushesCard';
import { useShopProducts, useStoreStatus } from './queries';
import { ReconciliationCard } from './ReconciliationCard';
import { AutoMapResults, ExportResults } from './ResultPanels';
import { SyncRunPanel } from './SyncRunPanel';

/** /woocommerce: the online shop's connection, its product mappings and the price sync (document 1, section 2). */
export default function WooCommercePage() {
  const { t } = useTexts();
  const status = useStoreStatus();
  const connected = status.data?.connected === true;
  const [autoMapResult, setAutoMapResult] = useState<AutoMapReply | null>(null);
  const [exportResult, setExportResult] = useState<ExportReply | null>(null);

  const sync = useSyncAll({
    onSuccess: (run) => {
      // A sync already going was joined (one at a time): the counts are its own.
      const joined = (text: string) => (run.joined ? `${t('woocommerce.syncJoined')} ${text}` : text);
      if (run.status === 'running') notify({ title: t('woocommerce.syncRunning'), description: joined(t('woocommerce.syncRunningBody')), type: 'info' });
      else if (run.status === 'finished') {
        notify({ title: t('woocommerce.syncDone'), description: joined(t('woocommerce.syncDoneBody', { synced: run.synced, failed: run.failed, skipped: run.skipped })), type: run.failed ? 'info' : 'success' });
      } else notify({ title: t('woocommerce.syncFailed'), description: joined(run.error ?? t('woocommerce.syncFailedDefault')), type: 'error' });
    },
    onError: (error) => notifyError(t('woocommerce.syncFailed'), error, t('woocommerce.syncFailedDefault')),
  });
  const autoMap = useAutoMap({
    onSuccess: (reply) => {
      setAutoMapResult(reply);
      notify({ title: t('woocommerce.autoMapDone'), description: t('woocommerce.autoMapDoneBody', { mapped: reply.mapped, failed: reply.failed, kept: reply.kept }), type: 'success' });
    },
    onError: (error) => notifyError(t('woocommerce.autoMapFailed'), error, t('woocommerce.autoMapFailedDefault')),
  });
  const exportToSheets = useExportToSheets({
    onSuccess: (reply) => {
      setExportResult(reply);
      notify({ title: t('woocommerce.exportDone'), description: t('woocommerce.exportDoneBody', { count: reply.productsExported, sheetName: reply.sheetName }), type: 'success' });
    },
    onError: (error) => notifyError(t('woocommerce.exportFailed'), error, t('woocommerce.exportFailedDefault')),
  });

  return (
    <>
      <PageHeader
        title={t('woocommerce.title')}
        subtitle={t('woocommerce.subtitle')}
        actions={
          // One unbreakable group: beside a long subtitle (Mongolian) the two links stay on one line.
          <Flex gap="2" wrap={{ base: 'wrap', md: 'nowrap' }}>
            <Button asChild variant="outline">
              <Link to="/">{t('woocommerce.backToDashboard')}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/analytics">{t('woocommerce.analytics')}</Link>
            </Button>
          </Flex>
        }
      />
      <Stack gap="6">
        <Card.Root size="sm" data-testid="store-connection">
          <Card.Header>
            <Heading as="h2" size="md">{t('woocommerce.connectionTitle')}</Heading>
          </Card.Header>
          <Card.Body>
            <Stack gap="4">
              <ConnectionState status={status} />
              <Flex gap="2" wrap="wrap" data-testid="shop-actions">
                <Button colorPalette="blue" disabled={!connected || sync.isPending} loading={sync.isPending} loadingText={t('woocommerce.syncing')} onClick={() => sync.mutate()}>
                  {t('woocommerce.sync')}
                </Button>
                <Button variant="outline" disabled={!connected || autoMap.isPending} loading={autoMap.isPending} loadingText={t('woocommerce.mapping')} onClick={() => autoMap.mutate()}>
                  {t('woocommerce.autoMap')}
                </Button>
                <Button variant="outline" disabled={!connected || exportToSheets.isPending} loading={exportToSheets.isPending} loadingText={t('woocommerce.exporting')} onClick={() => exportToSheets.mutate()}>
                  {t('woocommerce.export')}
                </Button>
              </Flex>
              {!connected && !status.isPending && <Text fontSize="sm" color="fg.muted">{t('woocommerce.actionsNeedConnection')}</Text>}
            </Stack>
          </Card.Body>
        </Card.Root>

        <SyncRunPanel syncRequested={sync.isPending} />
        {autoMapResult && <AutoMapResults result={autoMapResult} onClose={() => setAutoMapResult(null)} />}
        {exportResult && <ExportResults result={exportResult} onClose={() => setExportResult(null)} />}
        <MappingsCard />
        <ReconciliationCard connected={connected} />
        <PricePushesCard />
        <OrderLookupCard connected={connected} />
      </Stack>
    </>
  );
}

/** Not configured, configured but failing, or connected with the shop's product count (document 1, sections 2 and 4). */
function ConnectionState({ status }: { status: ReturnType<typeof useStoreStatus> }) {
  const { t } = useTexts();
  if (status.isPending) {
    return (
      <Flex gap="3" align="center" role="status">
        <Spinner size="sm" />
        <Text>{t('woocommerce.checking')}</Text>
      </Flex>
    );
  }
  if (status.isError) return <ErrorAlert testId="status-error" title={t('woocommerce.statusError')} description={status.error.message} />;
  const store = status.data;
  if (!store.configured) return <NotConfigured />;
  if (!store.connected) {
    return <ErrorAlert testId="connection-failed" title={t('woocommerce.connectionFailed')} description={store.error || t('woocommerce.connectionFailedDefault')} />;
  }
  return <Connected store={store} />;
}

function NotConfigured() {
  const { t } = useTexts();
  return (
    <Alert.Root status="warning" data-testid="not-configured">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('woocommerce.notConfigured')}</Alert.Title>
        <Alert.Description>
          <Text>{t('woocommerce.notConfiguredBody')}</Text>
          <Stack as="ul" gap="1" mt="2" ps="5" listStyleType="disc">
            <li><Text as="span" fontFamily="mono">WOOCOMMERCE_URL</Text> — {t('woocommerce.settingUrl')}</li>
            <li><Text as="span" fontFamily="mono">WOOCOMMERCE_CONSUMER_KEY</Text> — {t('woocommerce.settingKey')}</li>
            <li><Text as="span" fontFamily="mono">WOOCOMMERCE_CONSUMER_SECRET</Text> — {t('woocommerce.settingSecret')}</li>
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The count is the products call's (asked for only while connected); the status carries it too until that answers. */
function Connected({ store }: { store: StoreStatusReply }) {
  const { t } = useTexts();
  const products = useShopProducts(true);
  const count = products.data?.count ?? store.count ?? 0;
  return (
    <Flex gap="3" align="center" wrap="wrap" data-testid="connected">
      <Badge colorPalette="green" size="lg">{t('woocommerce.connected')}</Badge>
      <Text fontWeight="medium" data-testid="shop-product-count">{t('woocommerce.productCount', { count })}</Text>
      {store.storeUrl && (
        <ExternalLink href={store.storeUrl} target="_blank" rel="noreferrer" color="fg.muted" fontSize="sm" wordBreak="break-all">
          {store.storeUrl}
        </ExternalLink>
      )}
    </Flex>
  );
}
