import { Button } from '@chakra-ui/react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useTexts } from '../../i18n';
import { KeysTab } from './KeysTab';
import { PricingTab } from './PricingTab';

/**
 * /streaming-keys (document 3 §2): the keys of the streaming accounts with their slots, expiry and
 * tools, and the price list; the tab in `?tab=`.
 */
export default function StreamingKeysPage() {
  const { t } = useTexts();
  return (
    <>
      <PageHeader
        title={t('streamingKeys.title')}
        subtitle={t('streamingKeys.subtitle')}
        actions={
          <Button asChild variant="outline">
            <Link to="/manychat-admin">{t('streamingKeys.reminders')}</Link>
          </Button>
        }
      />
      <SearchParamTabs
        tabs={[
          { value: 'keys', label: t('streamingKeys.tab.keys'), content: <KeysTab /> },
          { value: 'pricing', label: t('streamingKeys.tab.pricing'), content: <PricingTab /> },
        ]}
      />
    </>
  );
}
