import { Button } from '@chakra-ui/react';
import { PageHeader } from '../../components/PageHeader';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { ComparisonTab } from './ComparisonTab';
import { JobsTab } from './JobsTab';
import { useSyncPrices } from './mutations';
import { PricingTab } from './PricingTab';
import { ProductsTab } from './ProductsTab';
import { useFailureToast } from './shared';

/**
 * /scraper-admin (document 2 §2.3): the scraped products grouped by game and their publication to
 * the shop, the scrape jobs with their live progress and the marketplaces they read, the exchange
 * rate, commission and commission tiers, and the price comparison across marketplaces; the tab in
 * `?tab=`. The header's Sync Prices gives every published product its price as the settings make it now.
 */
export default function ScraperAdminPage() {
  const { t } = useTexts();
  const failed = useFailureToast();
  const syncPrices = useSyncPrices({
    onSuccess: ({ data }) =>
      notify({
        title: t('scraperAdmin.syncPrices.done'),
        description: [t('scraperAdmin.syncPrices.doneBody', { updated: data.updated, skipped: data.skipped, errors: data.errors }), ...data.failures.slice(0, 3)].join('\n'),
        type: data.errors > 0 ? 'error' : 'success',
      }),
    onError: failed('scraperAdmin.syncPrices.failed'),
  });
  return (
    <>
      <PageHeader
        title={t('scraperAdmin.title')}
        subtitle={t('scraperAdmin.subtitle')}
        actions={
          <Button variant="outline" colorPalette="blue" onClick={() => syncPrices.mutate()} loading={syncPrices.isPending} loadingText={t('scraperAdmin.syncPrices.running')}>
            {t('scraperAdmin.syncPrices.button')}
          </Button>
        }
      />
      <SearchParamTabs
        tabs={[
          { value: 'products', label: t('scraperAdmin.tab.products'), shortLabel: t('scraperAdmin.tab.productsShort'), content: <ProductsTab /> },
          { value: 'jobs', label: t('scraperAdmin.tab.jobs'), shortLabel: t('scraperAdmin.tab.jobsShort'), content: <JobsTab /> },
          { value: 'pricing', label: t('scraperAdmin.tab.pricing'), shortLabel: t('scraperAdmin.tab.pricingShort'), content: <PricingTab /> },
          { value: 'comparison', label: t('scraperAdmin.tab.comparison'), shortLabel: t('scraperAdmin.tab.comparisonShort'), content: <ComparisonTab /> },
        ]}
      />
    </>
  );
}
